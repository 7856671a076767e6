import { expect } from 'chai';
import { once } from 'node:events';
import { createClient } from '@redis/client';
import pg from 'pg';
import {
  freshDatabase,
  sharedPostgres,
  startPostgres,
  startRedis,
  type PostgresServer,
  type RedisServer,
} from '../helpers/services.js';

// The test servers themselves: what the store tests rely on (test/helpers/services.ts).

async function pgClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

describe('test PostgreSQL', function () {
  this.timeout(60_000); // initdb and a start on a loaded 2-core machine
  let server: PostgresServer;
  before(async () => {
    server = await startPostgres();
  });
  after(() => server.remove());

  it('answers a query on its URL', async () => {
    expect(server.url).to.equal(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
    const client = await pgClient(server.url);
    const { rows } = await client.query('SELECT 1 AS one');
    await client.end();
    expect(rows).to.deep.equal([{ one: 1 }]);
  });

  it('refuses connections after stop(), and has its tables back after start() on the same URL', async () => {
    const client = await pgClient(server.url);
    await client.query('CREATE TABLE kept (value text)');
    await client.query("INSERT INTO kept VALUES ('still here')");
    await client.end();

    await server.stop();
    const refused = await pgClient(server.url).catch((error: NodeJS.ErrnoException) => error.code);
    expect(refused).to.equal('ECONNREFUSED');

    await server.start();
    const again = await pgClient(server.url);
    const { rows } = await again.query('SELECT value FROM kept');
    await again.end();
    expect(rows).to.deep.equal([{ value: 'still here' }]);
  });

  it('ends client connections on disconnectClients(), and the client is told why', async () => {
    const client = await pgClient(server.url);
    const errors: Error[] = [];
    client.on('error', (error) => errors.push(error)); // the reason, then the closed socket
    const ended = new Promise((resolve) => client.once('end', resolve)); // events.once would reject on 'error'
    expect(await server.disconnectClients()).to.equal(1);
    await ended;
    expect(errors[0]).to.have.property('code', '57P01'); // admin_shutdown: "terminating connection due to administrator command"
  });
});

describe('test Redis', function () {
  this.timeout(30_000);
  let server: RedisServer;
  before(async () => {
    server = await startRedis();
  });
  after(() => server.remove());

  it('answers PING on its URL', async () => {
    expect(server.url).to.equal(`redis://127.0.0.1:${server.port}`);
    const client = createClient({ url: server.url });
    await client.connect();
    expect(await client.ping()).to.equal('PONG');
    client.destroy();
  });

  // Persistence is off (no snapshot, no append-only file): a restarted Redis has lost its keys.
  it('comes back empty on the same URL after stop() and start()', async () => {
    const client = createClient({ url: server.url });
    await client.connect();
    await client.set('key', 'value');
    client.destroy();

    await server.stop();
    await server.start();

    const again = createClient({ url: server.url });
    await again.connect();
    expect(await again.get('key')).to.equal(null);
    again.destroy();
  });

  it('ends client and subscriber connections on disconnectClients(), and the clients see it', async () => {
    // No reconnection: each client reports the closed socket once and stays down.
    const options = { url: server.url, socket: { reconnectStrategy: false as const } };
    const client = createClient(options);
    const subscriber = createClient(options);
    await client.connect();
    await subscriber.connect();
    await subscriber.subscribe('notices', () => {});
    const closed = [once(client, 'error'), once(subscriber, 'error')];

    expect(await server.disconnectClients()).to.equal(2);
    const errors = (await Promise.all(closed)).map(([error]) => (error as Error).message);
    expect(errors).to.deep.equal(['Socket closed unexpectedly', 'Socket closed unexpectedly']);
  });
});

describe('shared test PostgreSQL', function () {
  this.timeout(60_000);

  it('gives each freshDatabase() caller an empty database of its own', async () => {
    const [first, second] = [await freshDatabase(), await freshDatabase()];
    expect(first).to.not.equal(second);
    const client = await pgClient(first);
    const { rows } = await client.query(
      "SELECT current_database() AS name, count(*)::int AS tables FROM pg_tables WHERE schemaname = 'public'",
    );
    await client.end();
    expect(rows).to.deep.equal([{ name: new URL(first).pathname.slice(1), tables: 0 }]);
    expect(new URL(first).host).to.equal(new URL(await sharedPostgres()).host);
  });
});

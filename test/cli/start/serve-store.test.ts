import { expect } from 'chai';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { runCli, startServerProcess } from '../../helpers/cli.js';
import { freshDatabase, freshRedisPrefix, sharedRedis } from '../../helpers/services.js';
import { tempDir } from '../../helpers/temp.js';

// `serve-bins --store URL` and `serve-mocks --store URL`: the bins and the mocks on a shared PostgreSQL or
// Redis (docs/stores.md).

const OPEN = { SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true' };

/** Each shared store, and how a test gets an empty one of its own: a database, or a key prefix. */
const FRESH_STORES = [
  ['PostgreSQL', async () => freshDatabase()],
  ['Redis', async () => `${await sharedRedis()}?prefix=${freshRedisPrefix()}`],
] as const;

/** A port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

for (const [command, what, variable] of [
  ['serve-bins', 'bins', 'SNIPPETKIT_BIN_STORE'],
  ['serve-mocks', 'mocks', 'SNIPPETKIT_MOCK_STORE'],
] as const) {
  describe(`${command} --store: refusals`, function () {
    this.timeout(60_000);

    it('refuses a URL of a store it does not run on, as a usage error', async () => {
      const result = await runCli([command, '--store', 'mysql://db/x']);
      expect([result.code, result.stderr.trim()]).to.deep.equal([
        2,
        'snippetkit: --store mysql://db/x (flag) is not a postgres://, postgresql://, redis:// or rediss:// URL',
      ]);
    });

    it('refuses a pool size that is not a whole number from 1 to 1000, as a usage error', async () => {
      for (const pool of ['0', '1001', '2.5', 'many', '']) {
        const result = await runCli([command, '--store', `postgres://db/x?pool=${pool}`]);
        expect([result.code, result.stderr.trim()], pool).to.deep.equal([
          2,
          `snippetkit: --store postgres://db/x?pool=${pool} (flag) is not a PostgreSQL URL whose pool= is a whole number of connections from 1 to 1000`,
        ]);
      }
    });

    it('refuses --data beside a store, naming where each came from', async () => {
      const temp = tempDir();
      try {
        const result = await runCli([command, '--data', join(temp.dir, 'x.sqlite')], { [variable]: 'redis://127.0.0.1:6379' });
        expect([result.code, result.stderr.trim()]).to.deep.equal([
          2,
          `snippetkit: --data and ${variable} both name where the ${what} are; give one`,
        ]);
      } finally {
        temp.cleanup();
      }
    });

    for (const [name, url] of [
      ['PostgreSQL', (port: number) => `postgres://snippetkit:secret@127.0.0.1:${port}/x`],
      ['Redis', (port: number) => `redis://:secret@127.0.0.1:${port}`],
    ] as const) {
      it(`stops with exit code 3 when ${name} cannot be reached at start, never showing the password`, async () => {
        const port = await closedPort();
        const result = await runCli([command, '--port', '0', '--store', url(port)]);
        expect(result.code).to.equal(3);
        expect(result.stderr).to.include(`127.0.0.1:${port}`).and.include('ECONNREFUSED').and.not.include('secret');
      });
    }
  });
}

describe('serve-bins --store', function () {
  this.timeout(60_000);

  for (const [name, store] of FRESH_STORES) {
    it(`serves bins from ${name}, names the store in its start-up line, and keeps them across a restart`, async () => {
      const url = await store();
      const first = await startServerProcess(['serve-bins', '--port', '0', '--store', url], OPEN);
      let saved: { url: string; snapshot: number };
      try {
        expect(first.banner).to.include(`store ${url.replace(/\?prefix=.*/, '')}`);
        const res = await fetch(`${first.url}/api/save`, { method: 'POST', body: new URLSearchParams({ html: '<p>kept</p>' }) });
        saved = (await res.json()) as typeof saved;
        expect(saved.snapshot).to.equal(1);
      } finally {
        await first.stop();
      }
      const second = await startServerProcess(['serve-bins', '--port', '0', '--store', url], OPEN);
      try {
        const bin = (await (await fetch(`${second.url}/api/${saved.url}`)).json()) as { html: string };
        expect(bin.html).to.equal('<p>kept</p>');
      } finally {
        await second.stop();
      }
    });
  }
});

describe('serve-bins --store postgres://…?pool=N', function () {
  this.timeout(60_000);

  /** The connections open on the database of `url` but the asker's own. */
  async function connections(url: string): Promise<number> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      return Number(rows[0].n);
    } finally {
      await client.end();
    }
  }

  /** Starts serve-bins on `store`, makes 60 saves at once, and counts the instance's connections. */
  async function connectionsAfterBurst(store: string, database: string): Promise<number> {
    const server = await startServerProcess(['serve-bins', '--port', '0', '--store', store], OPEN);
    try {
      const saves = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          fetch(`${server.url}/api/save`, { method: 'POST', body: new URLSearchParams({ html: `<p>${i}</p>` }) }),
        ),
      );
      expect(saves.map((res) => res.status)).to.deep.equal(saves.map(() => 200));
      return await connections(database);
    } finally {
      await server.stop();
    }
  }

  it('holds at most N pooled connections and its listening one, however many requests wait', async () => {
    const database = await freshDatabase();
    expect(await connectionsAfterBurst(`${database}?pool=2`, database)).to.be.within(1, 3);
    // The default pool opens more under the same burst, so the bound above is the setting's doing.
    expect(await connectionsAfterBurst(database, database)).to.be.above(3);
  });
});

describe('serve-mocks --store', function () {
  this.timeout(60_000);

  for (const [name, store] of FRESH_STORES) {
    it(`serves endpoints from ${name}, names the store in its start-up line, and keeps them across a restart`, async () => {
      const url = await store();
      const first = await startServerProcess(['serve-mocks', '--port', '0', '--store', url]);
      try {
        expect(first.banner).to.include(`store ${url.replace(/\?prefix=.*/, '')}`);
        const res = await fetch(`${first.url}/api/endpoint/add`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'kept', data: { kept: true } }),
        });
        expect(res.status).to.be.oneOf([200, 201]);
      } finally {
        await first.stop();
      }
      const second = await startServerProcess(['serve-mocks', '--port', '0', '--store', url]);
      try {
        expect(await (await fetch(`${second.url}/endpoint/kept`)).json()).to.deep.equal({ kept: true });
      } finally {
        await second.stop();
      }
    });
  }
});

import { expect } from 'chai';
import { createServer } from 'node:net';
import { isConnectionFailure, openPostgres } from '../../../src/store/postgres/client.js';
import { withoutPassword } from '../../../src/store/store-url.js';
import { listenForNotices } from '../../../src/store/postgres/notices.js';
import { StoreUnavailable } from '../../../src/store/unavailable.js';
import { clientError } from '../../../src/http/errors.js';
import pg from 'pg';
import { freshDatabase, startPostgres, type PostgresServer } from '../../helpers/services.js';

/** A port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err,
  );

describe('PostgreSQL connections', () => {
  it('rejects with StoreUnavailable when the server refuses the connection', async () => {
    const db = openPostgres(`postgres://postgres@127.0.0.1:${await closedPort()}/postgres`);
    try {
      const err = await failure(db.query({ text: 'SELECT 1' }));
      expect(err).to.be.instanceOf(StoreUnavailable);
      expect(clientError(err)?.status).to.equal(503);
    } finally {
      await db.close();
    }
  });

  it("passes a statement's own error through as it is", async () => {
    const db = openPostgres(await freshDatabase());
    try {
      const err = await failure(db.query({ text: 'SELECT * FROM no_such_table' }));
      expect(err).not.to.be.instanceOf(StoreUnavailable);
      expect(err).to.have.property('code', '42P01');
    } finally {
      await db.close();
    }
  });

  it('rolls a transaction back when its work throws', async () => {
    const db = openPostgres(await freshDatabase());
    try {
      await db.query({ text: 'CREATE TABLE t (n integer)' });
      const err = await failure(
        db.transaction(async (query) => {
          await query({ text: 'INSERT INTO t VALUES (1)' });
          throw new Error('no');
        }),
      );
      expect((err as Error).message).to.equal('no');
      expect(await db.query({ text: 'SELECT count(*)::int AS n FROM t' })).to.deep.equal([{ n: 0 }]);
    } finally {
      await db.close();
    }
  });

  it('fails to start listening with StoreUnavailable when the server refuses', async () => {
    const url = `postgres://postgres@127.0.0.1:${await closedPort()}/postgres`;
    const err = await failure(listenForNotices({ url, channels: { c: () => {} }, onState: () => {} }));
    expect(err).to.be.instanceOf(StoreUnavailable);
  });

  describe('a listening connection that stops answering', function () {
    this.timeout(30_000);
    let server: PostgresServer;
    before(async () => {
      server = await startPostgres();
    });
    after(() => server.remove());

    it('is found by the heartbeat, reported as not listening, and replaced by one that hears notices', async () => {
      const url = server.url;
      const states: boolean[] = [];
      const heard: string[] = [];
      let noticeHeard = () => {};
      let stateChanged = () => {};
      const nextState = () => new Promise<void>((resolve) => (stateChanged = resolve));
      const listener = await listenForNotices({
        url,
        channels: {
          beat: (payload) => {
            heard.push(payload);
            noticeHeard();
          },
        },
        onState: (listening) => {
          states.push(listening);
          stateChanged();
        },
        heartbeat: { everyMs: 100, timeoutMs: 1_000 },
      });
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      let stopped: number | undefined;
      try {
        const { rows } = await admin.query(
          "SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
        );
        expect(rows).to.have.length(1);
        stopped = Number(rows[0].pid);
        // The backend keeps its socket open and answers nothing: what a connection a NAT forgot looks like.
        let change = nextState();
        process.kill(stopped, 'SIGSTOP');
        await change;
        expect(states).to.deep.equal([false]);
        change = nextState();
        await change;
        expect(states).to.deep.equal([false, true]);
        const notice = new Promise<void>((resolve) => (noticeHeard = resolve));
        await admin.query("SELECT pg_notify('beat', 'after')");
        await notice;
        expect(heard).to.deep.equal(['after']);
      } finally {
        if (stopped !== undefined) process.kill(stopped, 'SIGCONT');
        await admin.end();
        await listener.close();
      }
    });
  });

  const failures: [string, object, boolean][] = [
    ['a refused connection', { code: 'ECONNREFUSED' }, true],
    ['a reset connection', { code: 'ECONNRESET' }, true],
    ['an admin shutdown (57P01)', { code: '57P01' }, true],
    ['a server starting up (57P03)', { code: '57P03' }, true],
    ['a connection exception (08006)', { code: '08006' }, true],
    ['a dropped connection', { message: 'Connection terminated unexpectedly' }, true],
    ['a connect timeout', { message: 'timeout exceeded when trying to connect' }, true],
    ['a unique violation (23505)', { code: '23505' }, false],
    ['a syntax error (42601)', { code: '42601' }, false],
    ['a plain error', { message: 'something else' }, false],
  ];
  for (const [what, fields, expected] of failures) {
    it(`${expected ? 'counts' : 'does not count'} ${what} as the store being unavailable`, () => {
      expect(isConnectionFailure(Object.assign(new Error('message' in fields ? String(fields.message) : 'x'), fields)))
        .to.equal(expected);
    });
  }

  const urls: [string, string][] = [
    ['postgres://user:secret@db.example:5432/bins', 'postgres://user@db.example:5432/bins'],
    ['postgres://user@db.example/bins?password=secret&sslmode=require', 'postgres://user@db.example/bins?sslmode=require'],
    ['postgres://db.example/bins', 'postgres://db.example/bins'],
  ];
  for (const [url, shown] of urls) {
    it(`shows ${url} as ${shown}`, () => {
      expect(withoutPassword(url)).to.equal(shown);
    });
  }
});

import { expect } from 'chai';
import { createMockHandler } from '../../../src/mocks/app.js';
import type { MockEngine } from '../../../src/mocks/engines/engine.js';
import { openPostgresMocks } from '../../../src/mocks/engines/postgres.js';
import { openRedisMocks } from '../../../src/mocks/engines/redis.js';
import type { LoggedRequest } from '../../../src/mocks/log/request-log.js';
import { createMockStore, DEFAULT_STORE_OPTIONS, type MockStore } from '../../../src/mocks/store/store.js';
import { listen } from '../../../src/server/listen.js';
import { spacePerTest } from '../../helpers/engine-space.js';
import { MOCK_ENGINES } from '../../helpers/mock-engines.js';
import { startPostgres, startRedis } from '../../helpers/services.js';
import { openSse } from '../../helpers/sse.js';
import { until } from '../../helpers/until.js';

// Hit counts and request logs of instances on one store: each instance shows every instance's
// requests (relayed as they happen, read again after the notice channel drops) and saves its own.

type Instance = { url: string; store: MockStore; close(): Promise<void> };

async function instance(engine: MockEngine): Promise<Instance> {
  const store = await createMockStore(engine, { ...DEFAULT_STORE_OPTIONS, flushMs: 20 });
  const running = await listen(createMockHandler({ store }), 0, '127.0.0.1');
  let closed = false;
  return {
    url: running.url,
    store,
    async close() {
      if (closed) return;
      closed = true;
      await running.close(100);
      await store.close();
    },
  };
}

const addHook = async (on: Instance) => {
  const res = await fetch(`${on.url}/api/endpoint/add`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'hook', data: { ok: true } }),
  });
  expect(res.status).to.equal(201);
};

const call = async (on: Instance, n: number) => {
  const res = await fetch(`${on.url}/endpoint/hook?n=${n}`, { method: 'POST', body: `body ${n}` });
  expect(res.status).to.equal(200);
};

const info = async (on: Instance) =>
  (await (await fetch(`${on.url}/api/endpoint/hook`)).json()) as { hits: number; lastCall: string | null };

const logged = async (on: Instance) =>
  ((await (await fetch(`${on.url}/api/endpoint/hook/requests`)).json()) as { requests: LoggedRequest[] }).requests;

/** What the store holds of `hook`: its hit count and its log's URLs, oldest first. */
async function stored(engine: MockEngine): Promise<{ hits: number; urls: string[] }> {
  const found = (await engine.stats.load(100)).get('hook');
  return { hits: found?.hits ?? 0, urls: (found?.entries ?? []).map((row) => (JSON.parse(row.entry) as LoggedRequest).url) };
}

for (const kind of MOCK_ENGINES) {
  describe(`hit counts and request logs of instances on ${kind.name}`, function () {
    this.timeout(30_000);
    const each = spacePerTest(kind, async (space) => instance(await space.open()));
    const open = () => each.open();

    it('saves each request once, counted once', async () => {
      const a = await open();
      await addHook(a);
      for (const n of [1, 2, 3]) await call(a, n);
      expect((await info(a)).hits).to.equal(3);
      await a.close();
      const engine = await each.space.open();
      try {
        expect(await stored(engine)).to.deep.equal({ hits: 3, urls: [1, 2, 3].map((n) => `/endpoint/hook?n=${n}`) });
      } finally {
        await engine.close();
      }
    });

    it("shows a request served by A in B's hits, lastCall, log and live feed", async function () {
      if (!each.space.shared) this.skip(); // one SQLite file has one writer
      const [a, b] = [await open(), await open()];
      await addHook(a);
      await until(async () => (await fetch(`${b.url}/api/endpoint/hook`)).status === 200);
      const stream = await openSse(`${b.url}/api/endpoint/hook/events`);
      try {
        expect(JSON.parse((await stream.next('log')).data)).to.deep.equal([]);
        await call(a, 1);
        const event = JSON.parse((await stream.next('request')).data) as LoggedRequest;
        expect([event.url, event.body]).to.deep.equal(['/endpoint/hook?n=1', 'body 1']);
      } finally {
        stream.close();
      }
      const onA = await info(a);
      expect(await info(b)).to.include({ hits: 1, lastCall: onA.lastCall });
      expect((await logged(b)).map((entry) => entry.url)).to.deep.equal(['/endpoint/hook?n=1']);
    });

    it("empties B's log when A's is cleared, and does not bring back requests A served before the clear", async function () {
      if (!each.space.shared) this.skip();
      const [a, b] = [await open(), await open()];
      await addHook(a);
      await until(async () => (await fetch(`${b.url}/api/endpoint/hook`)).status === 200);
      for (const n of [1, 2]) await call(a, n);
      await call(b, 3);
      await until(async () => (await logged(b)).length === 3 && (await logged(a)).length === 3);
      await call(a, 4); // still on its way to B, perhaps, as the log is cleared
      expect((await fetch(`${a.url}/api/endpoint/hook/requests`, { method: 'DELETE' })).status).to.equal(200);
      await until(async () => (await logged(b)).length === 0);
      await call(a, 5);
      await until(async () => (await logged(b)).length === 1);
      expect((await logged(b)).map((entry) => entry.url)).to.deep.equal(['/endpoint/hook?n=5']);
      // Hits are not part of the log: every request still counts, on both.
      await until(async () => (await info(b)).hits === 5);
      expect((await info(a)).hits).to.equal(5);
    });

    it('holds each request once in the store when both instances have saved', async function () {
      if (!each.space.shared) this.skip();
      const [a, b] = [await open(), await open()];
      await addHook(a);
      await until(async () => (await fetch(`${b.url}/api/endpoint/hook`)).status === 200);
      for (const n of [1, 2, 3]) await call(a, n);
      for (const n of [4, 5]) await call(b, n);
      await until(async () => (await info(a)).hits === 5 && (await info(b)).hits === 5);
      await until(async () => (await logged(a)).length === 5 && (await logged(b)).length === 5);
      // Saved as they came (every 20 ms) and at close: neither instance may save the other's requests.
      await Promise.all([a.close(), b.close()]);
      const engine = await each.space.open();
      try {
        const { hits, urls } = await stored(engine);
        expect(hits).to.equal(5);
        expect([...urls].sort()).to.deep.equal([1, 2, 3, 4, 5].map((n) => `/endpoint/hook?n=${n}`));
      } finally {
        await engine.close();
      }
    });
  });
}

// A relayed message lost while the channel is down: the store has the request, and B reads it again.
const OWN_SERVERS = [
  {
    name: 'PostgreSQL',
    async start() {
      const server = await startPostgres();
      return { open: () => openPostgresMocks(server.url), drop: () => server.disconnectClients(), remove: () => server.remove() };
    },
  },
  {
    name: 'Redis',
    async start() {
      const server = await startRedis();
      return { open: () => openRedisMocks(server.url), drop: () => server.disconnectClients(), remove: () => server.remove() };
    },
  },
];

for (const kind of OWN_SERVERS) {
  describe(`hit counts after the notice channel drops on ${kind.name}`, function () {
    this.timeout(60_000);

    it('reads counters and logs again when the channel comes back', async () => {
      const server = await kind.start();
      const b = await instance(await server.open());
      const writer = await server.open();
      try {
        await addHook(b);
        const time = new Date().toISOString();
        const entry = { time, method: 'GET', url: '/endpoint/hook?lost', ip: '10.0.0.1', headers: {}, body: '' };
        // Another instance's save whose relayed message never came.
        await writer.stats.save([
          { name: 'hook', hits: 1, lastCall: time, sequence: 0, entries: [{ ...entry, bodyTruncated: false, response: null, status: 200 }], skipped: 0, keep: 100 },
        ]);
        await call(b, 1);
        expect((await info(b)).hits).to.equal(1);
        // B's own hit saved first: a save the cut interrupts may land with its answer lost, and its retry count
        // the hit twice (noted in docs/stores.md); that is not what this test is about.
        await until(async () => (await writer.stats.load(100)).get('hook')?.hits === 2);
        await server.drop();
        await until(async () => (await info(b)).hits === 2);
        expect((await logged(b)).map((one) => one.url).sort()).to.deep.equal(['/endpoint/hook?lost', '/endpoint/hook?n=1']);
      } finally {
        await writer.close().catch(() => {});
        await b.close();
        await server.remove();
      }
    });
  });
}

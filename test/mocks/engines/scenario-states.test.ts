import { createClient } from '@redis/client';
import { expect } from 'chai';
import pg from 'pg';
import { createMockHandler } from '../../../src/mocks/app.js';
import type { MockEngine } from '../../../src/mocks/engines/engine.js';
import { openPostgresMocks } from '../../../src/mocks/engines/postgres.js';
import { openRedisMocks } from '../../../src/mocks/engines/redis.js';
import { createMockStore, DEFAULT_STORE_OPTIONS, type MockStore } from '../../../src/mocks/store/store.js';
import { listen } from '../../../src/server/listen.js';
import { spacePerTest, type EngineSpace } from '../../helpers/engine-space.js';
import { MOCK_ENGINES, mockEnginesPerTest } from '../../helpers/mock-engines.js';
import { startPostgres, startRedis } from '../../helpers/services.js';
import { until } from '../../helpers/until.js';
import { CHECKOUT } from '../checkout.js';

// Scenario states kept by every engine (src/mocks/engines/*, ScenarioRecords): across restarts, and
// between instances on one shared store (src/mocks/store/scenarios.ts).

type Instance = { url: string; store: MockStore; close(): Promise<void> };

/** A mock server over a new engine of `space`; closing it twice is harmless. */
async function instance(space: EngineSpace<MockEngine>): Promise<Instance> {
  const store = await createMockStore(await space.open(), DEFAULT_STORE_OPTIONS);
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

const states = async (on: Instance) =>
  ((await (await fetch(`${on.url}/api/scenarios`)).json()) as { scenarios: Record<string, string> }).scenarios;
const call = async (on: Instance, path: string, method = 'GET') => {
  const res = await fetch(`${on.url}/endpoint/${path}`, { method });
  return [res.status, await res.json()];
};
const put = async (on: Instance, path: string, body: unknown) => {
  const res = await fetch(on.url + path, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status, await res.clone().text()).to.be.oneOf([200, 201]);
};
const setUp = async (on: Instance) => {
  for (const record of CHECKOUT) await put(on, `/api/endpoint/${record.name}`, record);
};

for (const kind of MOCK_ENGINES) {
  describe(`scenario states on ${kind.name}`, function () {
    this.timeout(30_000);
    const engines = mockEnginesPerTest(kind);
    const each = spacePerTest(kind, instance);

    it('saves, reads and clears states in the engine', async () => {
      const engine = await engines.open();
      await engine.scenarios.set(new Map([['checkout', 'paid'], ['b', 'item added']]));
      await engine.scenarios.set(new Map([['checkout', 'start']]));
      expect(await engine.scenarios.all()).to.deep.equal(new Map([['checkout', 'start'], ['b', 'item added']]));
      await engine.scenarios.set(new Map());
      await engine.scenarios.clear();
      expect(await engine.scenarios.all()).to.deep.equal(new Map());
    });

    it("keeps a state a request moved, and one the API set, across a restart", async () => {
      let server = await each.open();
      await setUp(server);
      await call(server, 'cart/items', 'POST');
      await server.close(); // saves what is pending
      server = await each.open();
      expect(await states(server)).to.deep.equal({ checkout: 'item added' });
      expect(await call(server, 'cart')).to.deep.equal([200, { items: ['book'] }]);
      await put(server, '/api/scenarios', { checkout: 'paid' });
      await server.close();
      server = await each.open();
      expect(await call(server, 'cart')).to.deep.equal([200, { items: ['book'], paid: true }]);
    });

    it('stays reset across a restart', async () => {
      let server = await each.open();
      await setUp(server);
      await call(server, 'cart/items', 'POST');
      await fetch(`${server.url}/api/reset`, { method: 'POST' });
      await server.close();
      server = await each.open();
      await setUp(server);
      expect(await states(server)).to.deep.equal({ checkout: 'start' });
    });

    describe('two instances', () => {
      beforeEach(function () {
        if (!each.space.shared) this.skip(); // one SQLite file has one writer
      });

      it("answers from a state another instance's request moved, PUT set or reset", async () => {
        const [a, b] = [await each.open(), await each.open()];
        await setUp(a);
        await until(() => b.store.get('pay') !== undefined);
        await call(a, 'cart/items', 'POST');
        await until(async () => (await states(b)).checkout === 'item added');
        expect(await call(b, 'payments', 'POST')).to.deep.equal([201, { paid: true }]);
        await until(async () => (await states(a)).checkout === 'paid');
        expect(await call(a, 'cart')).to.deep.equal([200, { items: ['book'], paid: true }]);
        await put(b, '/api/scenarios', { checkout: 'item added' });
        await until(async () => (await states(a)).checkout === 'item added');
        await fetch(`${a.url}/api/reset`, { method: 'POST' });
        await until(async () => (await states(b)).checkout === undefined); // the endpoints went with the reset
        // The states' clear is its own notice, after the endpoints' deletions: B may see it a moment later.
        await until(() => b.store.scenarios.state('checkout') === 'start');
      });

      it('ends with one state on both when each moves it at once', async () => {
        const [a, b] = [await each.open(), await each.open()];
        await put(a, '/api/endpoint/flip', {
          scenario: 'coin', data: 'heads', setState: 'tails', responses: [{ when: { state: 'tails' }, data: 'tails', setState: 'heads' }],
        });
        await until(() => b.store.get('flip') !== undefined);
        await Promise.all(Array.from({ length: 20 }, (_, i) => call(i % 2 ? a : b, 'flip')));
        // The store's copy, beside the two instances, on the same space.
        const engine = await each.space.open();
        try {
          await until(async () => {
            const saved = (await engine.scenarios.all()).get('coin');
            return a.store.scenarios.state('coin') === saved && b.store.scenarios.state('coin') === saved;
          });
        } finally {
          await engine.close();
        }
      });
    });
  });
}

// A state written while B's notice channel is down (here: written behind its back, with no notice at all).
const OWN_SERVERS = [
  {
    name: 'PostgreSQL',
    async start() {
      const server = await startPostgres();
      const writeUnheard = async (name: string, state: string) => {
        const client = new pg.Client({ connectionString: server.url });
        await client.connect();
        await client.query('INSERT INTO mock_scenarios (name, state) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET state = $2', [name, state]);
        await client.end();
      };
      return { open: () => openPostgresMocks(server.url), writeUnheard, drop: () => server.disconnectClients(), remove: () => server.remove() };
    },
  },
  {
    name: 'Redis',
    async start() {
      const server = await startRedis();
      const writeUnheard = async (name: string, state: string) => {
        const client = createClient({ url: server.url });
        await client.connect();
        await client.hSet('snippetkit:mocks:scenarios', name, state);
        client.destroy();
      };
      return { open: () => openRedisMocks(server.url), writeUnheard, drop: () => server.disconnectClients(), remove: () => server.remove() };
    },
  },
];

for (const kind of OWN_SERVERS) {
  describe(`scenario states after the notice channel drops on ${kind.name}`, function () {
    this.timeout(60_000);

    it('reads the states again when the channel comes back', async () => {
      const server = await kind.start();
      const store = await createMockStore(await server.open(), DEFAULT_STORE_OPTIONS);
      try {
        await store.put({ name: 'cart', statusCode: 200, delay: 0, json: '1', scenario: 'checkout' });
        await server.writeUnheard('checkout', 'paid');
        expect(store.scenarios.state('checkout')).to.equal('start');
        await server.drop();
        await until(() => store.scenarios.state('checkout') === 'paid');
      } finally {
        await store.close().catch(() => {});
        await server.remove();
      }
    });
  });
}

import { expect } from 'chai';
import { call, CLUSTER_ENGINES, clusterPerSuite, type Answer } from '../helpers/cluster.js';
import { uniqueName } from '../helpers/services.js';
import { openSse, type SseClient } from '../helpers/sse.js';
import { until } from '../helpers/until.js';

// Issue 15's "what must hold" for mocks (items 3, 4, 5), on real serve-mocks processes sharing one store.

const UNAVAILABLE = { success: false, message: 'the store is unavailable; try again shortly' };

/** A request with `json` as its body, if given. */
const send = (base: string, path: string, method = 'GET', json?: unknown): Promise<Answer> =>
  call(base, path, json === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) });
const put = (base: string, name: string, record: object): Promise<Answer> => send(base, `/api/endpoint/${name}`, 'PUT', record);
const serve = (base: string, name: string): Promise<Answer> => send(base, `/endpoint/${name}`);
const info = (base: string, name: string): Promise<Answer> => send(base, `/api/endpoint/${name}`);

for (const engine of CLUSTER_ENGINES) {
  describe(`mocks on ${engine.name}, two instances`, function () {
    this.timeout(120_000);

    // These use endpoints of their own names, so they share one cluster; the store's troubles get clusters of their own.
    describe('on one cluster of two', () => {
      const shared = clusterPerSuite(engine, { serve: 'mocks', count: 2 });

      describe('no stale reads', () => {
        it('serves on B every endpoint added, replaced or deleted on A, over 51 changes', async () => {
          const [a, b] = shared.cluster.instances.map((instance) => instance.url) as [string, string];
          const delays: number[] = [];
          /** Makes `change` on A, then times until B serves `status` with `data`. */
          const timed = async (change: () => Promise<Answer>, status: number, data?: unknown): Promise<void> => {
            const answer = await change();
            expect(answer.status, JSON.stringify(answer.body)).to.be.oneOf([200, 201]);
            const started = performance.now();
            await until(async () => {
              const got = await serve(b, 'moving');
              return got.status === status && (data === undefined || JSON.stringify(got.body) === JSON.stringify(data));
            }, 5_000);
            delays.push(performance.now() - started);
          };
          for (let round = 0; round < 17; round++) {
            expect((await serve(b, 'moving')).status, 'B serves no such endpoint').to.equal(404);
            await timed(() => put(a, 'moving', { data: { round, v: 'added' } }), 200, { round, v: 'added' });
            await timed(() => put(a, 'moving', { data: { round, v: 'replaced' }, statusCode: 202 }), 202, { round, v: 'replaced' });
            await timed(() => send(a, '/api/endpoint/moving', 'DELETE'), 404);
          }
          delays.sort((x, y) => x - y);
          const p99 = delays[Math.ceil(delays.length * 0.99) - 1]!;
          const median = delays[Math.floor(delays.length / 2)]!;
          // A change lost or ignored shows as a read still stale at until()'s 5 s deadline. How soon is a speed
          // figure, printed here and not asserted: with every core loaded the p99 ranged from 23 to 445 ms, as
          // the notice waits for a core, not for the code.
          console.log(`      ${engine.name}: A's mock change served by B after ${median.toFixed(1)} ms median, ${p99.toFixed(1)} ms p99, ${delays.at(-1)!.toFixed(1)} ms max (${delays.length} changes; aim: p99 < 100 ms)`);
        });
      });

      describe('live request log and hit counts across instances', () => {
        const open: SseClient[] = [];
        after(() => open.splice(0).forEach((stream) => stream.close())); // an inner after: runs before the cluster stops

        it('shows a request served by A in the event stream open on B, and counts hits on both in B\'s endpoint info', async () => {
          const [a, b] = shared.cluster.instances.map((instance) => instance.url) as [string, string];
          expect((await put(a, 'hook', { data: { ok: true } })).status).to.equal(201);
          // B's one answered poll is the only hit so far: once A counts it too, nothing earlier is left to relay.
          await until(async () => (await serve(b, 'hook')).status === 200, 5_000);
          const hits = async (url: string): Promise<number> => (await info(url, 'hook')).body.hits;
          await until(async () => (await hits(a)) === 1, 5_000);
          expect(await hits(b)).to.equal(1);
          const stream = await openSse(`${b}/api/endpoint/hook/events`);
          open.push(stream);
          expect(stream.status).to.equal(200);
          await stream.next('log');

          const sent = await fetch(`${a}/endpoint/hook?from=a`, { method: 'POST', body: '{"event":"push"}', headers: { 'x-signature': 'abc' } });
          expect(sent.status).to.equal(200);
          const entry = JSON.parse((await stream.next('request')).data);
          expect(entry).to.deep.include({ method: 'POST', url: '/endpoint/hook?from=a', body: '{"event":"push"}' });
          expect(entry.headers).to.include({ 'x-signature': 'abc' });

          await Promise.all([serve(a, 'hook'), serve(a, 'hook'), serve(a, 'hook'), serve(b, 'hook'), serve(b, 'hook')]);
          for (const url of [b, a]) await until(async () => (await hits(url)) === 7, 5_000);
          const log = (await send(b, '/api/endpoint/hook/requests')).body.requests as { url: string }[];
          expect(log.map((r) => r.url)).to.include('/endpoint/hook?from=a');
        });
      });

      describe('a collection written through both instances', () => {
        it('ends 40 concurrent POSTs spread over both instances with 40 items readable from each', async () => {
          const [a, b] = shared.cluster.instances.map((instance) => instance.url) as [string, string];
          expect((await put(a, 'items', { data: [], collection: true })).status).to.equal(201);
          await until(async () => (await serve(b, 'items')).status === 200, 5_000);

          const posts = await Promise.all(
            Array.from({ length: 40 }, (_, i) => send(shared.cluster.url, '/endpoint/items', 'POST', { title: `item ${i}` })),
          );
          expect(posts.filter((p) => p.status !== 201).map((p) => [p.status, p.body])).to.deep.equal([]);
          expect(new Set(posts.map((p) => p.instance)).size, 'both instances took POSTs').to.equal(2);
          expect(new Set(posts.map((p) => String(p.body.id))).size, 'no id given twice').to.equal(40);

          const titles = Array.from({ length: 40 }, (_, i) => `item ${i}`).sort();
          for (const url of [a, b]) {
            await until(async () => (await serve(url, 'items')).body.length === 40, 5_000);
            const items = (await serve(url, 'items')).body as { id: unknown; title: string }[];
            expect(items.map((item) => item.title).sort(), url).to.deep.equal(titles);
          }
        });
      });
    });

    describe('the notice channel cut', () => {
      const own = clusterPerSuite(engine, { serve: 'mocks', count: 2, ownServer: true });

      it('serves on B a replace and a delete made on A while B\'s connections were cut, not what B had', async () => {
        const [a, b] = own.cluster.instances.map((instance) => instance.url) as [string, string];
        expect((await put(a, 'gone', { data: 'to delete' })).status).to.equal(201);
        // Rounds: the change lands at a different moment of B's reconnection each time.
        for (let round = 0; round < 3; round++) {
          expect((await put(a, 'cut', { data: { round, cut: false } })).status).to.be.oneOf([200, 201]);
          await until(async () => JSON.stringify((await serve(b, 'cut')).body) === JSON.stringify({ round, cut: false }), 5_000);
          expect(await own.server.disconnectClients()).to.be.above(0);
          await until(async () => (await put(a, 'cut', { data: { round, cut: true } })).status === 200, 15_000);
          await until(async () => JSON.stringify((await serve(b, 'cut')).body) === JSON.stringify({ round, cut: true }), 15_000);
        }
        await until(async () => (await serve(b, 'gone')).status === 200, 5_000);
        expect(await own.server.disconnectClients()).to.be.above(0);
        await until(async () => (await send(a, '/api/endpoint/gone', 'DELETE')).status === 200, 15_000);
        await until(async () => (await serve(b, 'gone')).status === 404, 15_000);
      });
    });

    describe('the store down, then back', () => {
      const own = clusterPerSuite(engine, { serve: 'mocks', count: 2, ownServer: true });

      it('serves endpoints and collections from memory, answers writes 503 JSON within 5 s and stores none, and resumes by itself', async () => {
        const [a, b] = own.cluster.instances.map((instance) => instance.url) as [string, string];
        expect((await put(a, 'kept', { data: { kept: true } })).status).to.equal(201);
        expect((await put(a, 'stock', { data: [{ id: 1, n: 1 }], collection: true })).status).to.equal(201);
        for (const url of [a, b]) {
          await until(async () => (await serve(url, 'kept')).status === 200, 5_000);
          await until(async () => (await serve(url, 'stock')).status === 200, 5_000);
        }

        await own.server.stop();
        for (const url of [a, b]) {
          const served = await serve(url, 'kept');
          expect([served.status, served.body], `${url}: served from memory`).to.deep.equal([200, { kept: true }]);
          const writes = [
            await put(url, 'kept', { data: { kept: false } }),
            await put(url, `lost-${uniqueName()}`, { data: 1 }),
            await send(url, '/api/endpoint/add', 'PUT', { name: `lost-${uniqueName()}`, data: 1 }),
            await send(url, '/api/endpoint/kept', 'DELETE'),
          ];
          const collection = [await send(url, '/endpoint/stock', 'POST', { n: 2 }), await send(url, '/endpoint/stock/1', 'PATCH', { n: 3 })];
          for (const write of collection) {
            expect([write.status, write.body, write.retryAfter], `${url}: a collection write`).to.deep.equal([503, UNAVAILABLE, '2']);
            expect(write.ms, url).to.be.below(5_000);
          }
          expect((await serve(url, 'stock')).body, `${url}: a collection read, from memory`).to.deep.equal([{ id: 1, n: 1 }]);
          for (const write of writes) {
            expect([write.status, write.body, write.retryAfter], url).to.deep.equal([503, UNAVAILABLE, '2']);
            expect(write.ms, url).to.be.below(5_000);
          }
          expect((await serve(url, 'kept')).body, `${url}: no write was applied`).to.deep.equal({ kept: true });
        }

        await own.server.start();
        await until(async () => (await put(a, 'after', { data: { back: true } })).status === 201, 30_000);
        await until(async () => (await serve(b, 'after')).status === 200, 30_000);
        expect((await serve(b, 'after')).body).to.deep.equal({ back: true });
        if (engine.keepsData) {
          for (const url of [a, b]) {
            expect((await serve(url, 'kept')).body).to.deep.equal({ kept: true });
            expect((await serve(url, 'stock')).body, 'the collection writes answered 503 were not stored').to.deep.equal([{ id: 1, n: 1 }]);
          }
        }
      });
    });
  });
}

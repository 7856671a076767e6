import { expect } from 'chai';
import { ADMIN, BURST_MS, call, CLUSTER_ENGINES, clusterPerSuite, SINGLE_MS, type Answer } from '../helpers/cluster.js';
import { inPool } from '../helpers/pool.js';
import { uniqueName } from '../helpers/services.js';
import { openSse, type SseClient } from '../helpers/sse.js';
import { until } from '../helpers/until.js';

// Issue 15's "what must hold" for bins, on N real serve-bins processes sharing one store.

const UNAVAILABLE = { error: 'the store is unavailable; try again shortly' };

/** A request with the admin key. */
const asAdmin = (base: string, path: string, init: RequestInit = {}, timeoutMs = SINGLE_MS): Promise<Answer> =>
  call(base, path, { ...init, headers: ADMIN }, timeoutMs);
/** A save; one of a burst of hundreds is given BURST_MS, as it waits for those before it. */
const save = (base: string, bin: string | undefined, html: string, timeoutMs = SINGLE_MS): Promise<Answer> =>
  asAdmin(base, bin ? `/api/${bin}/save` : '/api/save', { method: 'POST', body: new URLSearchParams({ html }) }, timeoutMs);
const read = (base: string, bin: string, rev?: number): Promise<Answer> => asAdmin(base, rev ? `/api/${bin}/${rev}` : `/api/${bin}`);
/** A read without a key: what a page makes, answered by the fast path from the answers it keeps per revision. */
const readAsPage = (base: string, bin: string, rev?: number): Promise<Answer> => call(base, rev ? `/api/${bin}/${rev}` : `/api/${bin}`);

/** What a failed fetch met: undici hides it in `cause` (ECONNRESET, UND_ERR_SOCKET). */
const causeOf = (error: Error): string => String((error.cause as NodeJS.ErrnoException | undefined)?.code ?? error.message);
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

for (const engine of CLUSTER_ENGINES) {
  describe(`bins on ${engine.name}, several instances`, function () {
    this.timeout(120_000);

    // These use bins of their own, so they share one cluster; kill -9 and the store's troubles get clusters of their own.
    describe('on one cluster of four', () => {
      const shared = clusterPerSuite(engine, { count: 4 });

      describe('revisions and ids', () => {
        it('numbers 200 concurrent saves to one bin over 4 instances 2..201, each readable from every instance', async () => {
          const { url: bin } = (await save(shared.cluster.url, undefined, 'first')).body;
          const saves = await Promise.all(range(2, 201).map((i) => save(shared.cluster.url, bin, `save ${i} ✓`, BURST_MS)));
          expect(saves.filter((s) => s.status !== 200).map((s) => [s.status, s.body])).to.deep.equal([]);
          const perInstance = saves.map((s) => s.instance).sort();
          expect(perInstance).to.deep.equal(['0', '1', '2', '3'].flatMap((i) => Array(50).fill(i)));
          expect(saves.map((s) => s.body.snapshot).sort((a, b) => a - b)).to.deep.equal(range(2, 201));

          const wrong: string[] = [];
          const checks = shared.cluster.instances.flatMap((instance, i) => saves.map((s, j) => ({ instance, i, s, html: `save ${j + 2} ✓` })));
          await inPool(checks.length, 16, async (k) => {
            const { instance, i, s, html } = checks[k]!;
            const got = await read(instance.url, bin, s.body.snapshot);
            if (got.status !== 200 || got.body.html !== html) wrong.push(`instance ${i} /${s.body.snapshot}: ${got.status} ${got.body.html}`);
          });
          expect(wrong).to.deep.equal([]);
        });

        it('gives unique ids to 200 new bins saved at once over all instances', async () => {
          const saves = await Promise.all(range(1, 200).map((i) => save(shared.cluster.url, undefined, `new ${i}`, BURST_MS)));
          expect(saves.filter((s) => s.status !== 200).map((s) => [s.status, s.body])).to.deep.equal([]);
          expect(new Set(saves.map((s) => s.body.url)).size).to.equal(200);
          expect(new Set(saves.map((s) => s.instance)).size).to.equal(4);
        });
      });

      describe('no stale reads', () => {
        it('serves on B every save and delete made on A, over 100 changes of a bin B had cached', async () => {
          const [a, b] = shared.cluster.instances.map((instance) => instance.url) as [string, string];
          const { url: bin } = (await save(a, undefined, 'base')).body;
          const delays: number[] = [];
          /**
           * Time from A's answer until B serves what `served` wants. Only a notice makes B drop what it
           * kept, so a notice lost or ignored shows as a read still stale at the deadline: 5 s, well
           * under the ~20 s in which a silently dead channel is replaced (docs/stores.md).
           */
          const delay = async (served: () => Promise<boolean>): Promise<number> => {
            const started = performance.now();
            await until(served, 5_000);
            return performance.now() - started;
          };
          for (let round = 0; round < 50; round++) {
            expect((await readAsPage(b, bin)).body.snapshot, 'B has the old head cached').to.equal(1);
            const saved = await save(a, bin, `change ${round}`);
            expect(saved.status).to.equal(200);
            const n: number = saved.body.snapshot;
            delays.push(await delay(async () => (await readAsPage(b, bin)).body.snapshot === n));

            expect((await readAsPage(b, bin, n)).body.html, 'B has the revision cached').to.equal(`change ${round}`);
            expect((await asAdmin(a, `/api/${bin}/${n}`, { method: 'DELETE' })).body).to.deep.equal({ url: bin, snapshot: n, deleted: true });
            delays.push(
              await delay(async () => {
                const [head, gone] = await Promise.all([readAsPage(b, bin), readAsPage(b, bin, n)]);
                return head.body.snapshot === 1 && gone.status === 404;
              }),
            );
          }
          delays.sort((x, y) => x - y);
          const p99 = delays[Math.ceil(delays.length * 0.99) - 1]!;
          const median = delays[delays.length / 2]!;
          console.log(`      ${engine.name}: A's change served by B after ${median.toFixed(1)} ms median, ${p99.toFixed(1)} ms p99, ${delays.at(-1)!.toFixed(1)} ms max (100 changes; aim: p99 < 100 ms)`);
          // How soon is a speed figure, measured by bench/ (the change-notice rows, target p99 <= 100 ms on
          // a quiet machine), not asserted here: with every core loaded the p99 ranged from 117 to 1,502 ms
          // on PostgreSQL, as the notice waits for a core, not for the code.
        });
      });

      describe('an instance\'s own saves', () => {
        it('serves its own latest save at once while notices of other bins\' saves stream in', async () => {
          const [a, b] = shared.cluster.instances.map((instance) => instance.url) as [string, string];
          const { url: bin } = (await save(a, undefined, 'mine')).body;
          // B's saves to other bins: A hears a notice of each, some as its own save is under way.
          let noisy = true;
          const noise = Promise.all(
            range(1, 4).map(async (i) => {
              while (noisy) await save(b, `noise-${i}`, 'noise');
            }),
          );
          const stale: string[] = [];
          try {
            for (let i = 0; i < 100; i++) {
              const saved = await save(a, bin, `mine ${i}`);
              const served = await read(a, bin);
              if (served.body.snapshot !== saved.body.snapshot) stale.push(`saved ${saved.body.snapshot}, served ${served.body.snapshot}`);
            }
          } finally {
            noisy = false;
            await noise;
          }
          expect(stale).to.deep.equal([]);
        });
      });

      describe('live sharing across instances', () => {
        const open: SseClient[] = [];
        after(() => open.splice(0).forEach((stream) => stream.close())); // an inner after: runs before the cluster stops

        it('sends what an editor on A types, and its saves, to a watcher and an output page on B', async () => {
          const [a, b] = shared.cluster.instances.map((instance) => instance.url) as [string, string];
          const { url: bin } = (await save(a, undefined, '<p>saved</p>')).body;
          const followers = await Promise.all([`/${bin}/1/watch`, `/${bin}`].map((path) => openSse(b + path)));
          open.push(...followers);
          const typed = await asAdmin(a, `/api/${bin}/live`, { method: 'POST', body: JSON.stringify({ html: '<p>typed on A</p>' }) });
          expect(typed.status).to.equal(200);
          for (const follower of followers) expect((await follower.next('html')).data).to.equal('<p>typed on A</p>');
          await save(a, bin, '<p>two</p>');
          for (const follower of followers) expect((await follower.next('bump-revision')).data).to.equal(`${bin}/2`);
        });

        it('sends console records from an output page on B to an editor on A', async () => {
          const [a, b] = shared.cluster.instances.map((instance) => instance.url) as [string, string];
          const { url: bin } = (await save(a, undefined, '<p>page</p>')).body;
          const editor = await openSse(`${a}/${bin}/1/edit`);
          open.push(editor);
          const records = [{ snippetkit: 'network', method: 'GET', url: 'https://x/', status: 200, ms: 3, size: 10 }];
          const sent = await asAdmin(b, `/api/${bin}/console`, { method: 'POST', body: JSON.stringify({ records }) });
          expect(sent.status).to.equal(200);
          expect(JSON.parse((await editor.next('console')).data)).to.deep.equal(records);
        });
      });
    });

    describe('kill -9 of an instance mid-stream', () => {
      const shared = clusterPerSuite(engine, { count: 4 });

      it('loses no save it answered: each is readable, as sent, from every surviving instance', async () => {
        const victim = shared.cluster.instances[1]!;
        const bins = range(0, 9).map((i) => `stream-${i}`);
        const answered: { bin: string; snapshot: number; html: string }[] = [];
        const unanswered: Record<string, number> = {};
        let killed: Promise<void> | undefined;
        await inPool(500, 20, async (i) => {
          const bin = bins[i % bins.length]!;
          const html = `save ${i} of ${bin} ✓`;
          // A request in flight on the victim may also be cut once the balancer began its answer: a reset, not a status.
          const res = await save(shared.cluster.url, bin, html).catch((error: Error) => ({ status: `reset (${causeOf(error)})` }) as const);
          if (res.status !== 200) return void (unanswered[res.status] = (unanswered[res.status] ?? 0) + 1); // nothing promised
          answered.push({ bin, snapshot: res.body.snapshot, html });
          if (answered.length === 150) killed = victim.kill('SIGKILL');
        });
        await killed;
        expect(killed, 'the instance was killed mid-stream').to.not.equal(undefined);
        // Only requests in flight on the killed instance can fail: the proxy skips it once it refuses.
        expect(answered.length, `not answered, by status: ${JSON.stringify(unanswered)}`).to.be.at.least(480);
        for (const bin of bins) {
          const snapshots = answered.filter((a) => a.bin === bin).map((a) => a.snapshot);
          expect(new Set(snapshots).size, `${bin}: no snapshot given twice`).to.equal(snapshots.length);
        }

        const survivors = shared.cluster.instances.filter((instance) => instance !== victim);
        const wrong: string[] = [];
        const checks = survivors.flatMap((instance) => answered.map((a) => ({ instance, a })));
        await inPool(checks.length, 16, async (k) => {
          const { instance, a } = checks[k]!;
          const got = await read(instance.url, a.bin, a.snapshot);
          if (got.status !== 200 || got.body.html !== a.html) wrong.push(`${instance.url} ${a.bin}/${a.snapshot}: ${got.status}`);
        });
        expect(wrong).to.deep.equal([]);
      });
    });

    describe('the notice channel cut', () => {
      const own = clusterPerSuite(engine, { count: 2, ownServer: true });

      it('serves on B a save made on A while B\'s connections were cut, not the revision B had cached', async () => {
        const [a, b] = own.cluster.instances.map((instance) => instance.url) as [string, string];
        const { url: bin } = (await save(a, undefined, 'before')).body;
        // Rounds: the save lands at a different moment of B's reconnection each time.
        for (let round = 0; round < 3; round++) {
          const cached = (await read(b, bin)).body.snapshot;
          expect((await read(b, bin)).body.snapshot).to.equal(cached);
          expect(await own.server.disconnectClients()).to.be.above(0);
          let saved: Answer | undefined;
          await until(async () => (saved = await save(a, bin, `after cut ${round}`)).status === 200, 15_000);
          expect(saved!.body.snapshot).to.be.above(cached);
          await until(async () => {
            const got = await read(b, bin);
            return got.body.snapshot === saved!.body.snapshot && got.body.html === `after cut ${round}`;
          }, 15_000);
        }
      });
    });

    describe('the store down, then back', () => {
      const own = clusterPerSuite(engine, { count: 2, ownServer: true });

      it('answers 503 JSON within 5 s while the store is down, acknowledges no save, and resumes by itself', async () => {
        const urls = own.cluster.instances.map((instance) => instance.url);
        const { url: bin } = (await save(urls[0]!, undefined, 'kept')).body;
        for (const url of urls) expect((await read(url, bin)).body.html).to.equal('kept');

        await own.server.stop();
        for (const url of urls) {
          // A bin it had cached is not trusted either, once it has seen its notice channel drop.
          await until(async () => (await read(url, bin)).status === 503, 5_000);
          const answers = [await read(url, bin), await read(url, `never-${uniqueName()}`)];
          answers.push(await save(url, bin, 'lost'), await save(url, undefined, 'lost'));
          for (const answer of answers) {
            expect([answer.status, answer.body, answer.retryAfter], url).to.deep.equal([503, UNAVAILABLE, '2']);
            expect(answer.ms, url).to.be.below(5_000);
          }
        }

        await own.server.start();
        for (const url of urls) await until(async () => (await save(url, undefined, 'back')).status === 200, 30_000);
        const fresh = await save(urls[0]!, undefined, 'after the outage');
        expect((await read(urls[1]!, fresh.body.url)).body.html).to.equal('after the outage');
        if (engine.keepsData) {
          for (const url of urls) {
            expect((await read(url, bin)).body).to.include({ snapshot: 1, html: 'kept' });
            expect((await read(url, bin, 2)).status, 'the save answered 503 was not stored').to.equal(404);
          }
        }
      });
    });
  });
}

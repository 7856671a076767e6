import { expect } from 'chai';
import type { Item } from '../../src/mocks/collections/query.js';
import type { MockEngine } from '../../src/mocks/engines/engine.js';
import type { MockInput } from '../../src/mocks/record/record.js';
import { createMockStore, DEFAULT_STORE_OPTIONS, type MockStore } from '../../src/mocks/store/store.js';
import { spacePerTest } from '../helpers/engine-space.js';
import { MOCK_ENGINES, mockStoresPerTest } from '../helpers/mock-engines.js';

// Mock stores of several instances on one shared engine follow each other's endpoint records and
// collections (src/mocks/store/follow-changes.ts).

const endpoint = (name: string, data: unknown, fields: Partial<MockInput> = {}): MockInput => ({
  name,
  statusCode: 200,
  json: JSON.stringify(data),
  delay: 0,
  ...fields,
});

/** Resolves once `check` holds, trying again each turn of the event loop; fails after `ms`. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not so after ${ms} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The endpoint answering GET `path` on `store`, by name. */
function answering(store: MockStore, path: string): string | undefined {
  const found = store.route('GET', path);
  return found && 'value' in found ? found.value.record.name : undefined;
}

for (const kind of MOCK_ENGINES) {
  describe(`mock stores of two instances on ${kind.name}`, function () {
    this.timeout(30_000);
    const each = mockStoresPerTest(kind);
    const open = () => each.open();
    beforeEach(function () {
      if (!each.space.shared) this.skip(); // one SQLite file has one writer
    });

    it("serves another instance's new, replaced and deleted endpoints", async () => {
      const [a, b] = [await open(), await open()];
      await a.add(endpoint('users', [{ id: 1 }], { path: 'users/:id' }));
      await eventually(() => answering(b, 'users/7') === 'users');
      await a.put(endpoint('users', { replaced: true }, { path: 'people/:id' }));
      await eventually(() => b.get('users')?.body.toString() === '{"replaced":true}');
      expect(answering(b, 'people/7')).to.equal('users');
      expect(answering(b, 'users/7')).to.equal(undefined);
      await a.delete('users');
      await eventually(() => b.get('users') === undefined);
      expect(answering(b, 'people/7')).to.equal(undefined);
    });

    it("reads a collection another instance changed, not the state it kept", async () => {
      const [a, b] = [await open(), await open()];
      await a.add(endpoint('posts', [{ id: 1, title: 'one' }], { collection: true }));
      await eventually(() => b.get('posts') !== undefined);
      const record = b.get('posts')!.record;
      expect(await b.collections.read(record)).to.deep.equal([{ id: 1, title: 'one' }]);
      await a.collections.update(a.get('posts')!.record, (state) => ({
        answer: undefined,
        state: [...(state as Item[]), { id: 2, title: 'two' }],
      }));
      await eventually(async () => ((await b.collections.read(record)) as Item[]).length === 2);
    });

    it('keeps every append of two instances changing one collection at once', async () => {
      const [a, b] = [await open(), await open()];
      await a.add(endpoint('posts', [], { collection: true }));
      await eventually(() => b.get('posts') !== undefined);
      const append = (store: MockStore, id: number) =>
        store.collections.update(store.get('posts')!.record, (state) => ({
          answer: id,
          state: [...(state as Item[]), { id }],
        }));
      // Spread over both instances, as a load balancer would: each instance's own queue lets one at a time.
      await Promise.all(Array.from({ length: 50 }, (_, i) => append(i % 2 ? a : b, i)));
      const ids = (state: unknown) => (state as Item[]).map((item) => item.id as number).sort((x, y) => x - y);
      const all = Array.from({ length: 50 }, (_, i) => i);
      expect(ids(await a.collections.read(a.get('posts')!.record))).to.deep.equal(all);
      await eventually(async () => ids(await b.collections.read(b.get('posts')!.record)).length === 50);
      expect(ids(await b.collections.read(b.get('posts')!.record))).to.deep.equal(all);
    });
  });
}

/**
 * A real engine, but for three handles on its timing: the next read of every record can be held with
 * its answer (`holdReadAll`), the store can be told its notice channel dropped and came back
 * (`channelBack`), and the next read of the counters (the last step of reading everything again) can
 * be awaited (`nextStatsLoad`).
 */
function timedEngine(engine: MockEngine) {
  let held: { reached(): void; released: Promise<void> } | undefined;
  let onStatsLoad: (() => void) | undefined;
  let onState: ((listening: boolean) => void) | undefined;
  const timed: MockEngine = {
    ...engine,
    endpoints: {
      ...engine.endpoints,
      async all() {
        const records = await engine.endpoints.all();
        const hold = held;
        held = undefined;
        if (hold) {
          hold.reached();
          await hold.released;
        }
        return records;
      },
    },
    stats: {
      ...engine.stats,
      load(logSize) {
        onStatsLoad?.();
        return engine.stats.load(logSize);
      },
    },
    changes: {
      subscribe(onChange, state) {
        onState = state;
        engine.changes!.subscribe(onChange, state);
      },
    },
  };
  return {
    engine: timed,
    holdReadAll() {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      const reached = new Promise<void>((resolve) => (held = { reached: resolve, released }));
      return { reached, release };
    },
    channelBack() {
      onState!(false);
      onState!(true);
    },
    nextStatsLoad: () => new Promise<void>((resolve) => (onStatsLoad = resolve)),
  };
}

for (const kind of MOCK_ENGINES) {
  describe(`a mock store on ${kind.name} reading every record again after its channel came back`, function () {
    this.timeout(30_000);
    const each = spacePerTest(kind, async (space) => {
      const timed = timedEngine(await space.open());
      const store = await createMockStore(timed.engine, DEFAULT_STORE_OPTIONS);
      return { ...timed, store, close: () => store.close() };
    });
    beforeEach(function () {
      if (!each.space.shared) this.skip();
    });

    for (const [who, writer] of [
      ['another instance', 0],
      ['this instance', 1],
    ] as const) {
      it(`keeps what ${who} wrote while it read, not the older copy it read`, async () => {
        const pair = [await each.open(), await each.open()] as const;
        const [a, b] = pair;
        await a.store.add(endpoint('x', 1));
        await eventually(() => b.store.get('x') !== undefined);
        const hold = b.holdReadAll();
        b.channelBack();
        await hold.reached; // B has read every record: its copy of x is 1
        await pair[writer].store.put(endpoint('x', 2));
        await eventually(() => b.store.get('x')?.body.toString() === '2');
        const placed = b.nextStatsLoad();
        hold.release();
        await placed; // every record of B's copy has been put in place; the counters come last
        expect(b.store.get('x')?.body.toString()).to.equal('2');
      });
    }
  });
}

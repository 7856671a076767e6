import { expect } from 'chai';
import type { Item } from '../../src/mocks/collection-query.js';
import type { MockInput } from '../../src/mocks/record.js';
import type { MockStore } from '../../src/mocks/store.js';
import { MOCK_ENGINES, mockStoresPerTest } from '../helpers/mock-engines.js';

// Mock stores of several instances on one shared engine follow each other's endpoint records and
// collections (src/mocks/follow-changes.ts).

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

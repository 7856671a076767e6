import { expect } from 'chai';
import { createBinStore, type BinStore } from '../../src/bins/store/store.js';
import type { Revision } from '../../src/bins/engines/records.js';
import { BIN_ENGINES, binStoresPerTest } from '../helpers/bin-engines.js';

// What the bin store (caches over an engine) does, the same on every engine; and, where the engine's
// store is shared, across instances (src/bins/store/store.ts).

const panels = (html: string): Omit<Revision, 'created'> => ({ html, javascript: '', css: '', settings: {} });

/** Resolves once `check` holds, reading again each turn of the event loop; fails after `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not so after ${ms} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

for (const kind of BIN_ENGINES) {
  describe(`the bin store on ${kind.name}`, function () {
    this.timeout(60_000);
    const each = binStoresPerTest(kind);
    const open = () => each.open();
    let store: BinStore;
    beforeEach(async () => {
      store = await open();
    });

    it('numbers 50 concurrent saves to one bin 1..50, each holding its own content', async () => {
      const saved = await Promise.all(Array.from({ length: 50 }, (_, i) => store.append('abc', () => panels(`save ${i}`))));
      expect(saved.map((s) => s.rev).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 50 }, (_, i) => i + 1));
      for (const [i, s] of saved.entries()) expect((await store.get('abc', s.rev))?.html).to.equal(`save ${i}`);
    });

    it('gives concurrent new bins distinct ids', async () => {
      const saved = await Promise.all(Array.from({ length: 50 }, () => store.append(undefined, () => panels('x'))));
      expect(new Set(saved.map((s) => s.bin)).size).to.equal(50);
      expect(saved.every((s) => s.rev === 1)).to.equal(true);
    });

    it('never gives a number twice, across deletes of the latest', async () => {
      await store.append('abc', () => panels('one'));
      await store.append('abc', () => panels('two'));
      expect(await store.remove('abc')).to.deep.equal({ bin: 'abc', rev: 2 });
      expect((await store.get('abc'))?.rev).to.equal(1);
      expect((await store.append('abc', () => panels('three'))).rev).to.equal(3);
      expect(await store.revisions('abc')).to.have.length(2);
    });

    it('hands build the latest revision, to derive the next from', async () => {
      await store.append('abc', () => ({ ...panels('one'), settings: { title: 'kept' } }));
      const next = await store.append('abc', (previous) => ({ ...panels('two'), settings: previous!.settings }));
      expect(next.settings).to.deep.equal({ title: 'kept' });
    });

    describe('shared by several instances', () => {
      beforeEach(function () {
        if (!each.space.shared) this.skip(); // one SQLite file has one writer
      });

      it('numbers 100 concurrent saves to one bin over two instances 1..100, each readable on both', async () => {
        const other = await open();
        const saved = await Promise.all(
          Array.from({ length: 100 }, (_, i) => (i % 2 ? other : store).append('abc', () => panels(`save ${i}`))),
        );
        expect(saved.map((s) => s.rev).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 100 }, (_, i) => i + 1));
        for (const [i, s] of saved.entries()) {
          expect([(await store.get('abc', s.rev))?.html, (await other.get('abc', s.rev))?.html]).to.deep.equal([
            `save ${i}`,
            `save ${i}`,
          ]);
        }
      });

      it("reads a number past the head it kept from the store: another instance's save may be ahead of its notice", async () => {
        // This instance's notices are held back, as one still on its way would be.
        const late = createBinStore({ ...(await each.space.open()), changes: undefined });
        try {
          await late.append('abc', () => panels('one')); // keeps a head whose latest is 1
          await store.append('abc', () => panels('two'));
          expect((await late.get('abc', 2))?.html).to.equal('two');
          expect((await late.get('abc', 3))?.html).to.equal(undefined);
        } finally {
          await late.close();
        }
      });

      it("serves another instance's save, delete and template instead of what it kept", async () => {
        await store.append('abc', () => panels('one'));
        const other = await open(); // after the save: its notice cannot come after the read below
        expect((await other.get('abc'))?.html).to.equal('one'); // now kept by `other`
        expect(other.peek('abc')?.html).to.equal('one');
        await store.append('abc', () => panels('two'));
        await eventually(async () => (await other.get('abc'))?.html === 'two');
        await store.remove('abc');
        await eventually(async () => (await other.get('abc'))?.html === 'one');
        await store.remove('abc', 1);
        await eventually(async () => (await other.get('abc', 1)) === undefined && other.peek('abc', 1) === undefined);

        await other.template();
        await store.setTemplate({ html: 'tpl', javascript: '', css: '', settings: {} });
        await eventually(async () => (await other.template())?.html === 'tpl');
      });

      it('serves its own latest save at once while notices of other saves stream in', async () => {
        const other = await open();
        for (let i = 0; i < 30; i++) {
          const [mine] = await Promise.all([
            store.append('mine', () => panels(`m${i}`)),
            other.append('theirs', () => panels(`t${i}`)),
          ]);
          expect((await store.get('mine'))?.rev).to.equal(mine.rev);
        }
      });

      it("builds on another instance's latest, not on the one it kept", async () => {
        const other = await open();
        await store.append('abc', () => ({ ...panels('one'), settings: { n: 1 } }));
        await other.get('abc');
        await store.append('abc', () => ({ ...panels('two'), settings: { n: 2 } }));
        const next = await other.append('abc', (previous) => ({ ...panels('three'), settings: previous!.settings }));
        expect([next.rev, next.settings]).to.deep.equal([3, { n: 2 }]);
      });
    });
  });
}

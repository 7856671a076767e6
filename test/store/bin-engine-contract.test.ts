import { expect } from 'chai';
import type { BinEngine, Head } from '../../src/bins/engines/engine.js';
import type { Revision } from '../../src/bins/engines/records.js';
import { BIN_ENGINES, binEnginesPerTest } from '../helpers/bin-engines.js';
import { listen } from '../helpers/heard-changes.js';

// What every bin engine does, the same on each (src/bins/engines/engine.ts).

const created = '2024-05-06T07:08:09.000Z';
const revision = (html: string): Revision => ({
  html,
  javascript: `// ${html}`,
  css: '',
  settings: { a: 1, nested: { list: [1, 'два', null] } },
  created,
});
const head = (latest: number, summary: string, next = latest + 1): Head => ({
  latest,
  next,
  created,
  updated: created,
  summary,
  folded: summary.toLowerCase(),
});

for (const kind of BIN_ENGINES) {
  describe(`the ${kind.name} bin engine`, function () {
    this.timeout(30_000); // a throwaway server's first start on a loaded machine
    const each = binEnginesPerTest(kind);
    const open = () => each.open();
    let engine: BinEngine;
    beforeEach(async () => {
      engine = await open();
    });

    it('writes a new bin\'s revision and head in one save, and reads them back exactly', async () => {
      expect(await engine.save('abc', revision('one'), head(1, 'One'), undefined)).to.equal(true);
      expect(await engine.read('abc', undefined)).to.deep.equal({ head: head(1, 'One'), revision: revision('one') });
      expect(await engine.read('abc', 1)).to.deep.equal({ head: head(1, 'One'), revision: revision('one') });
      expect(await engine.read('abc', 2)).to.deep.equal({ head: head(1, 'One') });
      expect(await engine.read('nope', undefined)).to.equal(undefined);
    });

    it('refuses a new-bin save to an id a bin has, and writes nothing', async () => {
      await engine.save('abc', revision('one'), head(1, 'One'), undefined);
      const claimed = await engine.save('abc', revision('two'), head(2, 'Two'), undefined);
      expect([claimed, await engine.head('abc'), await engine.revisions('abc')]).to.deep.equal([
        false,
        head(1, 'One'),
        [{ rev: 1, created }],
      ]);
    });

    it('saves on the head it was built on, and refuses one built on a head that moved on', async () => {
      await engine.save('abc', revision('one'), head(1, 'One'), undefined);
      expect(await engine.save('abc', revision('two'), head(2, 'Two'), 2)).to.equal(true);
      expect(await engine.save('abc', revision('late'), head(2, 'Late'), 2)).to.equal(false);
      expect(await engine.save('new', revision('x'), head(1, 'X'), 1)).to.equal(false); // no head to match
      expect([await engine.head('abc'), await engine.revision('abc', 2), await engine.head('new')]).to.deep.equal([
        head(2, 'Two'),
        revision('two'),
        undefined,
      ]);
    });

    it('deletes the latest revision and moves the head in one write, only while it is the latest', async () => {
      await engine.save('abc', revision('one'), head(1, 'One'), undefined);
      await engine.save('abc', revision('two'), head(2, 'Two'), 2);
      expect(await engine.remove('abc', 1, head(0, '', 3))).to.equal(false); // 1 is not the latest
      expect(await engine.remove('abc', 2, head(1, 'One', 3))).to.equal(true);
      expect([await engine.head('abc'), await engine.revision('abc', 2), await engine.revision('abc', 1)]).to.deep.equal([
        head(1, 'One', 3),
        undefined,
        revision('one'),
      ]);
    });

    it('refuses to move the head onto a revision that is gone, or to delete the latest as an older one', async () => {
      for (let rev = 1; rev <= 3; rev++) {
        await engine.save('abc', revision(`r${rev}`), head(rev, `R${rev}`), rev === 1 ? undefined : rev);
      }
      expect(await engine.remove('abc', 3)).to.equal(false); // the latest: only with the head it moves to
      expect(await engine.remove('abc', 2)).to.equal(true);
      expect(await engine.remove('abc', 3, head(2, 'R2', 4))).to.equal(false); // 2 is gone
      expect([await engine.head('abc'), await engine.revision('abc', 3)]).to.deep.equal([head(3, 'R3'), revision('r3')]);
    });

    it('deletes an older revision alone, and says when there was none', async () => {
      await engine.save('abc', revision('one'), head(1, 'One'), undefined);
      await engine.save('abc', revision('two'), head(2, 'Two'), 2);
      expect(await engine.remove('abc', 1)).to.equal(true);
      expect(await engine.remove('abc', 1)).to.equal(false);
      expect(await engine.revisions('abc')).to.deep.equal([{ rev: 2, created }]);
      expect(await engine.before('abc', 2)).to.equal(undefined);
    });

    it('finds the revision before a number, and lists revisions newest first', async () => {
      for (let rev = 1; rev <= 3; rev++) {
        await engine.save('abc', revision(`r${rev}`), head(rev, `R${rev}`), rev === 1 ? undefined : rev);
      }
      await engine.save('abcd', revision('other'), head(1, 'Other'), undefined); // shares a prefix
      expect(await engine.before('abc', 3)).to.deep.equal({ ...revision('r2'), rev: 2 });
      expect((await engine.revisions('abc')).map((r) => r.rev)).to.deep.equal([3, 2, 1]);
      const all = await engine.everything();
      expect([...all.heads.keys()].sort()).to.deep.equal(['abc', 'abcd']);
      expect(all.revisions.get('abc')!.map((r) => r.rev)).to.deep.equal([3, 2, 1]);
    });

    it('pages bins last updated first, filtered on the id or the summary', async () => {
      const at = (minute: number) => `2024-05-06T07:${String(minute).padStart(2, '0')}:00.000Z`;
      // A head's `updated` is its latest revision's save time.
      const saved = async (bin: string, summary: string, minute: number) =>
        engine.save(bin, { ...revision(summary), created: at(minute) }, { ...head(1, summary), updated: at(minute) }, undefined);
      await saved('aaa', 'Alpha', 1);
      await saved('bbb', 'Beta 50%', 3);
      await saved('ccc', 'Gamma', 2);
      const page = await engine.page({ offset: 0, limit: 2 });
      expect([page.total, page.rows.map((r) => r.bin)]).to.deep.equal([3, ['bbb', 'ccc']]);
      expect(page.rows[0]).to.deep.equal({ bin: 'bbb', latest: 1, revisionCount: 1, updated: at(3), summary: 'Beta 50%' });
      expect((await engine.page({ offset: 2, limit: 2 })).rows.map((r) => r.bin)).to.deep.equal(['aaa']);
      const filtered = await engine.page({ q: '50%', offset: 0, limit: 10 });
      expect([filtered.total, filtered.rows.map((r) => r.bin)]).to.deep.equal([1, ['bbb']]);
      expect((await engine.page({ q: 'cc', offset: 0, limit: 10 })).rows.map((r) => r.bin)).to.deep.equal(['ccc']);
    });

    it('sorts the whole list by time, id or revisions, either way, ties by id, before paging and after filtering', async () => {
      const at = (minute: number) => `2024-05-06T07:${String(minute).padStart(2, '0')}:00.000Z`;
      // [bin, revisions, minute of the last save, summary]; ccc and eee were saved in the same millisecond.
      const bins: [string, number, number, string][] = [
        ['ccc', 1, 5, 'Stone'],
        ['aaa', 3, 2, 'Apple fruit'],
        ['bbb', 2, 9, 'Banana fruit'],
        ['ddd', 2, 1, 'Date fruit'],
        ['eee', 1, 5, 'Egg'],
      ];
      for (const [bin, count, minute, summary] of bins) {
        for (let rev = 1; rev <= count; rev++) {
          const saved = { ...revision(summary), created: at(minute) };
          expect(await engine.save(bin, saved, { ...head(rev, summary), updated: at(minute) }, rev === 1 ? undefined : rev)).to.equal(true);
        }
      }
      const order = async (by: 'updated' | 'name' | 'revisions', direction: 'asc' | 'desc', q = '', offset = 0, limit = 10) => {
        const page = await engine.page({ q, sort: { by, order: direction }, offset, limit });
        return [page.total, page.rows.map((r) => r.bin)];
      };
      expect(await order('updated', 'desc')).to.deep.equal([5, ['bbb', 'eee', 'ccc', 'aaa', 'ddd']]);
      expect(await order('updated', 'asc')).to.deep.equal([5, ['ddd', 'aaa', 'ccc', 'eee', 'bbb']]);
      expect(await order('name', 'asc')).to.deep.equal([5, ['aaa', 'bbb', 'ccc', 'ddd', 'eee']]);
      expect(await order('name', 'desc')).to.deep.equal([5, ['eee', 'ddd', 'ccc', 'bbb', 'aaa']]);
      expect(await order('revisions', 'desc')).to.deep.equal([5, ['aaa', 'ddd', 'bbb', 'eee', 'ccc']]);
      expect(await order('revisions', 'asc')).to.deep.equal([5, ['ccc', 'eee', 'bbb', 'ddd', 'aaa']]);
      expect(await order('name', 'asc', '', 1, 2)).to.deep.equal([5, ['bbb', 'ccc']]);
      expect(await order('revisions', 'desc', '', 3, 10)).to.deep.equal([5, ['eee', 'ccc']]);
      expect(await order('revisions', 'asc', 'fruit')).to.deep.equal([3, ['bbb', 'ddd', 'aaa']]);
      expect(await order('updated', 'asc', 'fruit', 1, 1)).to.deep.equal([3, ['aaa']]);
      expect(await order('name', 'desc', 'FRUIT'.toLowerCase(), 0, 2)).to.deep.equal([3, ['ddd', 'bbb']]);
      const [row] = (await engine.page({ sort: { by: 'revisions', order: 'desc' }, offset: 0, limit: 1 })).rows;
      expect(row).to.deep.equal({ bin: 'aaa', latest: 3, revisionCount: 3, updated: at(2), summary: 'Apple fruit' });
    });

    it('keeps one template: set, read back, cleared', async () => {
      expect(await engine.template.get()).to.equal(undefined);
      const template = { html: '<p>t</p>', javascript: '', css: 'p{}', settings: { processors: {} }, updated: created };
      await engine.template.set(template);
      expect(await engine.template.get()).to.deep.equal(template);
      await engine.template.clear();
      expect(await engine.template.get()).to.equal(undefined);
    });

    describe('shared by several instances', () => {
      beforeEach(function () {
        if (!each.space.shared) this.skip(); // one SQLite file has one writer
      });

      it('lets exactly one of two saves built on the same head land', async () => {
        const other = await open();
        await engine.save('abc', revision('one'), head(1, 'One'), undefined);
        for (let round = 2; round <= 20; round++) {
          const results = await Promise.all([
            engine.save('abc', revision(`a${round}`), head(round, 'A'), round),
            other.save('abc', revision(`b${round}`), head(round, 'B'), round),
          ]);
          expect(results.filter(Boolean)).to.have.length(1);
        }
        expect((await other.revisions('abc')).map((r) => r.rev)).to.deep.equal(Array.from({ length: 20 }, (_, i) => 20 - i));
      });

      it('tells the others of each write, and not the writer', async () => {
        const other = await open();
        const mine = listen(engine);
        const theirs = listen(other);
        await engine.save('abc', revision('one'), head(1, 'One'), undefined);
        await theirs.until(() => theirs.changes.length >= 1);
        await engine.save('abc', revision('two'), head(2, 'Two'), 2);
        await theirs.until(() => theirs.changes.length >= 2);
        await engine.remove('abc', 1);
        await theirs.until(() => theirs.changes.length >= 3);
        await engine.template.set({ html: '', javascript: '', css: '', settings: {}, updated: created });
        await theirs.until(() => theirs.changes.length >= 4);
        await other.save('zzz', revision('z'), head(1, 'Z'), undefined);
        await mine.until(() => mine.changes.length >= 1);
        const seen = { theirs: theirs.changes, mine: mine.changes };
        expect(seen.theirs).to.deep.equal([{ bin: 'abc' }, { bin: 'abc' }, { bin: 'abc', rev: 1 }, { template: true }]);
        expect(seen.mine).to.deep.equal([{ bin: 'zzz' }]);
      });

      it('relays messages to the other instances in the order sent, and not to the sender', async () => {
        const other = await open();
        const mine: string[] = [];
        const theirs: string[] = [];
        let arrived = () => {};
        engine.relay!.subscribe((message) => mine.push(message));
        other.relay!.subscribe((message) => {
          theirs.push(message);
          if (theirs.length === 100) arrived();
        });
        const all = new Promise<void>((resolve) => (arrived = resolve));
        const big = 'x'.repeat(64 * 1024); // larger than a PostgreSQL notice can carry
        for (let i = 0; i < 100; i++) engine.relay!.publish(i === 50 ? big : `message ${i}`);
        await all;
        expect(theirs).to.deep.equal(Array.from({ length: 100 }, (_, i) => (i === 50 ? big : `message ${i}`)));
        other.relay!.publish('back');
        await new Promise<void>((resolve) => engine.relay!.subscribe(() => resolve()));
        expect(mine).to.deep.equal(['back']);
      });
    });
  });
}

import { expect } from 'chai';
import pg from 'pg';
import type { BinEngine, Head } from '../../../src/bins/engines/engine.js';
import { openPostgresBins } from '../../../src/bins/engines/postgres.js';
import type { Revision } from '../../../src/bins/engines/records.js';
import { DataFileError } from '../../../src/store/data-file.js';
import { StoreUnavailable } from '../../../src/store/unavailable.js';
import { listen } from '../../helpers/heard-changes.js';
import { closedAfterEach } from '../../helpers/per-test.js';
import { freshDatabase, ownServerPerTest, startPostgres } from '../../helpers/services.js';

const created = '2024-05-06T07:08:09.000Z';
const revision = (html: string, settings: Revision['settings'] = { a: 1 }): Revision => ({
  html,
  javascript: '',
  css: '',
  settings,
  created,
});
const head = (latest: number, summary = `Rev ${latest}`, updated = created): Head => ({
  latest,
  next: latest + 1,
  created,
  updated,
  summary,
  folded: summary.toLowerCase(),
});

/** Saves the next revision of `bin` as the store does: read the head, write on it, again if another write came first. */
async function append(engine: BinEngine, bin: string, html: string): Promise<number> {
  for (;;) {
    const current = await engine.head(bin);
    const rev = current?.next ?? 1;
    if (await engine.save(bin, revision(html), head(rev), current?.next)) return rev;
  }
}

describe('the PostgreSQL bin engine', function () {
  this.timeout(30_000);
  const open = closedAfterEach(openPostgresBins);

  describe('on one database, two instances', () => {
    let a: BinEngine;
    let b: BinEngine;
    beforeEach(async () => {
      const url = await freshDatabase();
      [a, b] = [await open(url), await open(url)];
    });

    it('writes a revision and its head in one save, and reads them back in one read', async () => {
      expect(await a.save('abc', revision('one'), head(1, 'One'), undefined)).to.equal(true);
      expect(await b.read('abc', undefined)).to.deep.equal({ head: head(1, 'One'), revision: revision('one') });
      expect(await b.read('abc', 2)).to.deep.equal({ head: head(1, 'One') });
      expect(await b.read('nope', undefined)).to.equal(undefined);
    });

    it('lets exactly one of two saves on the same next number win, and the loser writes nothing', async () => {
      await a.save('abc', revision('one'), head(1), undefined);
      const won = await Promise.all([
        a.save('abc', revision('from a'), head(2), 2),
        b.save('abc', revision('from b'), head(2), 2),
      ]);
      expect(won.filter(Boolean)).to.have.length(1);
      const winner = won[0] ? 'from a' : 'from b';
      expect(await a.revisions('abc')).to.deep.equal([{ rev: 2, created }, { rev: 1, created }]);
      expect((await b.revision('abc', 2))?.html).to.equal(winner);
      expect(await b.head('abc')).to.deep.equal(head(2));
    });

    it('gives 50 concurrent saves from two instances the numbers 1 to 50, none twice, none skipped', async () => {
      const numbers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => append(i % 2 ? a : b, 'busy', `save ${i}`)),
      );
      const all = Array.from({ length: 50 }, (_, i) => i + 1);
      expect([...numbers].sort((x, y) => x - y)).to.deep.equal(all);
      expect((await a.revisions('busy')).map((r) => r.rev)).to.deep.equal(all.reverse());
      expect(await b.head('busy')).to.include({ latest: 50, next: 51 });
    });

    it('lets one of two instances claim a new id, and the other writes nothing', async () => {
      const won = await Promise.all([
        a.save('fresh', revision('from a'), head(1), undefined),
        b.save('fresh', revision('from b'), head(1, 'Other'), undefined),
      ]);
      expect(won.filter(Boolean)).to.have.length(1);
      const [html, summary] = won[0] ? ['from a', 'Rev 1'] : ['from b', 'Other'];
      expect(await a.read('fresh', undefined)).to.deep.equal({ head: head(1, summary), revision: revision(html) });
      expect(await a.revisions('fresh')).to.have.length(1);
    });

    it('refuses a save whose head was read before another save', async () => {
      await a.save('abc', revision('one'), head(1), undefined);
      expect(await a.save('abc', revision('late'), head(2), 1)).to.equal(false);
      expect(await a.revisions('abc')).to.deep.equal([{ rev: 1, created }]);
    });

    it('deletes the latest revision and moves the head only if the latest is still that one', async () => {
      await append(a, 'abc', 'one');
      await append(a, 'abc', 'two');
      const moved = { ...head(1, 'One'), next: 3 };
      expect(await b.remove('abc', 1, moved)).to.equal(false);
      expect(await b.revision('abc', 1)).to.deep.equal(revision('one'));
      expect(await a.remove('abc', 2, moved)).to.equal(true);
      expect(await b.remove('abc', 2, moved)).to.equal(false);
      expect([await b.head('abc'), await b.revision('abc', 2)]).to.deep.equal([moved, undefined]);
    });

    it('deletes an older revision alone, and says whether there was one', async () => {
      await append(a, 'abc', 'one');
      await append(a, 'abc', 'two');
      expect(await a.remove('abc', 1)).to.equal(true);
      expect(await b.remove('abc', 1)).to.equal(false);
      expect([await b.head('abc'), await b.revisions('abc')]).to.deep.equal([head(2), [{ rev: 2, created }]]);
    });

    it('reads settings back exactly as saved: key order, nesting, text of every script', async () => {
      const settings = { z: 1, a: [true, null, { 'ключ': '值 🎉' }], m: { b: 2.5, a: '' }, processors: { html: 'pug' } };
      await a.save('abc', revision('one', settings), head(1), undefined);
      const read = await b.revision('abc', 1);
      expect(JSON.stringify(read?.settings)).to.equal(JSON.stringify(settings));
    });

    it('finds the newest revision below a number', async () => {
      for (const html of ['one', 'two', 'three']) await append(a, 'abc', html);
      await a.remove('abc', 2);
      expect(await b.before('abc', 3)).to.deep.equal({ ...revision('one'), rev: 1 });
      expect(await b.before('abc', 1)).to.equal(undefined);
    });

    it('lists bins with a revision, last saved first, a page at a time, filtered by id or summary in any case', async () => {
      const at = (minute: number) => `2024-05-06T07:${String(minute).padStart(2, '0')}:00.000Z`;
      const saves: [string, string, string][] = [
        ['alpha', 'Hello World', at(1)],
        ['beta', 'Ünïcode HELLO', at(3)],
        ['gamma', 'nothing', at(2)],
        ['delta', 'gone', at(4)],
      ];
      for (const [bin, summary, updated] of saves) {
        await a.save(bin, revision(summary), head(1, summary, updated), undefined);
      }
      await a.save('alpha', revision('Hello World'), head(2, 'Hello World', at(0)), 2);
      await a.remove('delta', 1, { ...head(0, '', at(5)), next: 2 });

      const row = (bin: string, latest: number, revisionCount: number, updated: string, summary: string) =>
        ({ bin, latest, revisionCount, updated, summary });
      expect(await b.page({ offset: 0, limit: 2 })).to.deep.equal({
        total: 3,
        rows: [row('beta', 1, 1, at(3), 'Ünïcode HELLO'), row('gamma', 1, 1, at(2), 'nothing')],
      });
      expect(await b.page({ offset: 2, limit: 2 })).to.deep.equal({
        total: 3,
        rows: [row('alpha', 2, 2, at(0), 'Hello World')],
      });
      expect(await b.page({ q: 'HeLLo', offset: 0, limit: 10 })).to.deep.include({ total: 2 });
      expect((await b.page({ q: 'ÜNÏ', offset: 0, limit: 10 })).rows.map((r) => r.bin)).to.deep.equal(['beta']);
      expect((await b.page({ q: 'amm', offset: 0, limit: 10 })).rows.map((r) => r.bin)).to.deep.equal(['gamma']);
      expect(await b.page({ q: '%', offset: 0, limit: 10 })).to.deep.equal({ total: 0, rows: [] });
    });

    it('gives every head and every revision at once', async () => {
      await append(a, 'one', 'first');
      await append(a, 'one', 'second');
      await append(a, 'two', 'only');
      const all = await b.everything();
      expect(Object.fromEntries(all.heads)).to.deep.equal({ one: head(2), two: head(1) });
      expect(all.revisions.get('one')?.map((r) => [r.rev, r.html])).to.deep.equal([[2, 'second'], [1, 'first']]);
      expect(all.revisions.get('two')?.map((r) => r.rev)).to.deep.equal([1]);
    });

    it('keeps one template: set, replaced, read by the other instance, cleared', async () => {
      const template = { html: '<p>', javascript: 'x()', css: 'p{}', settings: { b: 1, a: 2 }, updated: created };
      expect(await b.template.get()).to.equal(undefined);
      await a.template.set(template);
      await a.template.set({ ...template, html: '<div>' });
      const read = await b.template.get();
      expect(read).to.deep.equal({ ...template, html: '<div>' });
      expect(Object.keys(read!.settings)).to.deep.equal(['b', 'a']);
      await b.template.clear();
      expect(await a.template.get()).to.equal(undefined);
    });

    it("tells each instance of the other's writes, and never of its own", async () => {
      const heardByA = listen(a);
      const heardByB = listen(b);
      await append(a, 'abc', 'one');
      await a.remove('abc', 1, { ...head(0, ''), next: 2 });
      await a.template.set({ html: '', javascript: '', css: '', settings: {}, updated: created });
      await append(b, 'from-b', 'one');
      // Notices arrive in commit order: once A hears B's save, any notice of A's own would have come before it.
      await heardByA.until(() => heardByA.changes.length > 0);
      await heardByB.until(() => heardByB.changes.length >= 3);
      expect(heardByA.changes).to.deep.equal([{ bin: 'from-b' }]);
      expect(heardByB.changes).to.deep.equal([{ bin: 'abc' }, { bin: 'abc', rev: 1 }, { template: true }]);
      expect([heardByA.states, heardByB.states]).to.deep.equal([[], []]);
    });

    it('says where it is without the password', async () => {
      expect(a.where).to.match(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/test_\w+$/);
    });
  });

  describe('opening', () => {
    it('opens an empty database from four instances at once', async () => {
      const url = await freshDatabase();
      const results = await Promise.allSettled([open(url), open(url), open(url), open(url)]);
      expect(results.map((result) => result.status)).to.deep.equal(Array(4).fill('fulfilled'));
      const [a, b] = open.opened;
      await a!.save('abc', revision('one'), head(1), undefined);
      expect(await b!.head('abc')).to.deep.equal(head(1));
    });

    it('refuses a database whose bins a newer version wrote', async () => {
      const url = await freshDatabase();
      await (await open(url)).close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query("UPDATE snippetkit_schema SET version = 2 WHERE part = 'bins'");
      await client.end();
      const refused = await openPostgresBins(url).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(refused).to.be.instanceOf(DataFileError);
      expect((refused as Error).message).to.match(
        /^the bins in the database postgres:\/\/\S+ were written by a newer snippetkit \(schema 2\); upgrade it$/,
      );
    });
  });

  describe('on a server that goes away', () => {
    const own = ownServerPerTest(startPostgres, openPostgresBins);

    it('says the channel dropped when its connection is cut, and listens again by itself', async () => {
      const [a, b] = [await own.open(), await own.open()];
      const heard = listen(b);
      expect(await own.server.disconnectClients()).to.be.greaterThan(0);
      await heard.until(() => heard.states.length >= 2);
      expect(heard.states).to.deep.equal([false, true]);
      await append(a, 'after', 'one');
      await heard.until(() => heard.changes.length > 0);
      expect(heard.changes).to.deep.equal([{ bin: 'after' }]);
    });

    it('answers StoreUnavailable within seconds while the server is down, and serves again once it is back', async () => {
      const engine = await own.open();
      const heard = listen(engine);
      await append(engine, 'abc', 'one');
      await own.server.stop();
      for (const attempt of [() => engine.head('abc'), () => engine.save('new', revision('x'), head(1), undefined)]) {
        const started = Date.now();
        const failed = await attempt().then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(failed).to.be.instanceOf(StoreUnavailable);
        expect(Date.now() - started).to.be.below(10_000);
      }
      await own.server.start();
      expect(await engine.head('abc')).to.deep.equal(head(1));
      expect(await append(engine, 'abc', 'two')).to.equal(2);
      await heard.until(() => heard.states.at(-1) === true);
      expect(heard.states).to.deep.equal([false, true]);
    });

    it('closes at once while the server is down', async () => {
      const engine = await openPostgresBins(own.server.url);
      const heard = listen(engine);
      await own.server.stop();
      await heard.until(() => heard.states.length > 0);
      const started = Date.now();
      await engine.close();
      expect(Date.now() - started).to.be.below(5_000);
    });
  });
});

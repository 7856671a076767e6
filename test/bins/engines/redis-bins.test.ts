import { createClient } from '@redis/client';
import { expect } from 'chai';
import type { BinEngine, Change, Head } from '../../../src/bins/engines/engine.js';
import { listing } from '../../../src/bins/engines/listing.js';
import { openRedisBins } from '../../../src/bins/engines/redis.js';
import type { Revision } from '../../../src/bins/engines/records.js';
import { DataFileError } from '../../../src/store/data-file.js';
import { withoutPassword } from '../../../src/store/store-url.js';
import { StoreUnavailable } from '../../../src/store/unavailable.js';
import { clientError } from '../../../src/http/errors.js';
import { closedAfterEach } from '../../helpers/per-test.js';
import { freshRedisPrefix, ownServerPerTest, sharedRedis, startRedis } from '../../helpers/services.js';
import { until } from '../../helpers/until.js';

const created = '2024-05-06T07:08:09.000Z';
const revision = (html: string, at = created): Revision => ({ html, javascript: '', css: '', settings: { a: 1 }, created: at });
const headOf = (rev: number, r: Revision, first = r.created): Head => ({
  latest: rev,
  next: rev + 1,
  created: first,
  updated: r.created,
  ...listing(r),
});

/** A save as the store makes it: read the head, write on its `next`, read again and retry if another won. */
async function append(engine: BinEngine, bin: string, html: string): Promise<number> {
  for (;;) {
    const current = await engine.head(bin);
    const rev = current?.next ?? 1;
    const r = revision(html, new Date().toISOString());
    if (await engine.save(bin, r, headOf(rev, r, current?.created), current?.next)) return rev;
  }
}

describe('the Redis bin engine', function () {
  this.timeout(60_000);
  const open = closedAfterEach((url: string, prefix: string) => openRedisBins(url, { prefix }));

  describe('on the shared server', () => {
    let a: BinEngine;
    let b: BinEngine;
    let prefix: string;
    beforeEach(async () => {
      prefix = freshRedisPrefix();
      a = await open(await sharedRedis(), prefix);
      b = await open(await sharedRedis(), prefix);
    });

    it('writes a revision and its head in one save, and reads them in one', async () => {
      const r = revision('one');
      expect(await a.save('abc', r, headOf(1, r), undefined)).to.equal(true);
      expect(await b.read('abc', undefined)).to.deep.equal({ head: headOf(1, r), revision: r });
      expect(await b.read('abc', 2)).to.deep.equal({ head: headOf(1, r) });
      expect(await b.read('nope', undefined)).to.equal(undefined);
    });

    it('lets exactly one of two saves on the same `next` win, and writes nothing for the loser', async () => {
      const first = revision('one');
      await a.save('abc', first, headOf(1, first), undefined);
      const [ra, rb] = [revision('from a'), revision('from b')];
      const results = await Promise.all([a.save('abc', ra, headOf(2, ra), 2), b.save('abc', rb, headOf(2, rb), 2)]);
      expect(results.filter(Boolean)).to.have.length(1);
      const winner = results[0] ? ra : rb;
      expect(await a.read('abc', 2)).to.deep.equal({ head: headOf(2, winner, created), revision: winner });
      expect(await a.revisions('abc')).to.deep.equal([
        { rev: 2, created },
        { rev: 1, created },
      ]);
    });

    it('numbers 50 concurrent saves from two engines 1..50 without gaps', async () => {
      const revs = await Promise.all(Array.from({ length: 50 }, (_, i) => append(i % 2 ? a : b, 'busy', `save ${i}`)));
      expect([...revs].sort((x, y) => x - y)).to.deep.equal(Array.from({ length: 50 }, (_, i) => i + 1));
      expect((await a.revisions('busy')).map((r) => r.rev)).to.deep.equal(Array.from({ length: 50 }, (_, i) => 50 - i));
      expect(await a.head('busy')).to.include({ latest: 50, next: 51 });
    });

    it('gives a fresh bin to exactly one of two claims', async () => {
      const [ra, rb] = [revision('a'), revision('b')];
      const results = await Promise.all([a.save('new', ra, headOf(1, ra), undefined), b.save('new', rb, headOf(1, rb), undefined)]);
      expect(results.filter(Boolean)).to.have.length(1);
      expect((await a.revision('new', 1))?.html).to.equal(results[0] ? 'a' : 'b');
    });

    it('deletes the latest only while the head still has it, and another revision outright', async () => {
      for (const [rev, html] of [[1, 'one'], [2, 'two'], [3, 'three']] as const) {
        const r = revision(html);
        await a.save('abc', r, headOf(rev, r), rev === 1 ? undefined : rev);
      }
      const moved = { ...headOf(2, revision('two')), next: 4 };
      expect(await a.remove('abc', 3, moved)).to.equal(true);
      expect(await b.remove('abc', 3, moved)).to.equal(false);
      expect(await a.head('abc')).to.deep.equal(moved);
      expect(await a.revision('abc', 3)).to.equal(undefined);
      expect(await b.remove('abc', 1)).to.equal(true);
      expect(await b.remove('abc', 1)).to.equal(false);
      expect(await a.revisions('abc')).to.deep.equal([{ rev: 2, created }]);
      expect(await a.before('abc', 2)).to.equal(undefined);
    });

    it('finds the newest revision below a number', async () => {
      for (const [rev, html] of [[1, 'one'], [2, 'two'], [3, 'three']] as const) {
        const r = revision(html);
        await a.save('abc', r, headOf(rev, r), rev === 1 ? undefined : rev);
      }
      await a.remove('abc', 2);
      expect(await a.before('abc', 3)).to.deep.equal({ ...revision('one'), rev: 1 });
    });

    it('keeps settings and panels as they were sent: nested JSON, unicode', async () => {
      const r: Revision = {
        html: '<p>Grüße 🚀 — ☃</p>',
        javascript: 'console.log("é")',
        css: 'p::after { content: "✓" }',
        settings: { processors: { html: 'markdown' }, list: [1, 'two', { three: [null, true] }], empty: [], note: 'ünï 😀' },
        created,
      };
      await a.save('uni', r, headOf(1, r), undefined);
      expect(await b.revision('uni', 1)).to.deep.equal(r);
      const all = await b.everything();
      expect(all.revisions.get('uni')).to.deep.equal([{ ...r, rev: 1 }]);
      expect(all.heads.get('uni')).to.deep.equal(headOf(1, r));
    });

    it('pages last saved first (ties by id descending), with the filter on id and summary', async () => {
      const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 0, minute)).toISOString();
      const bins: [string, string, number][] = [
        ['aaa', '<h1>Ünïcode Title</h1>', 1],
        ['bbb', 'plain', 2],
        ['ccc', 'Plain too', 2],
        ['ddd', 'gone', 3],
      ];
      for (const [bin, html, minute] of bins) {
        const r = revision(html, at(minute));
        await a.save(bin, r, headOf(1, r), undefined);
      }
      await a.remove('ddd', 1, { ...headOf(0, revision('', at(4))), next: 2 });
      const page = await b.page({ offset: 0, limit: 10 });
      expect(page.total).to.equal(3);
      expect(page.rows.map((row) => row.bin)).to.deep.equal(['ccc', 'bbb', 'aaa']);
      expect(page.rows[2]).to.deep.equal({ bin: 'aaa', latest: 1, revisionCount: 1, updated: at(1), summary: listing(revision(bins[0]![1])).summary });
      expect(await b.page({ offset: 1, limit: 1 })).to.deep.include({ total: 3 });
      expect((await b.page({ offset: 1, limit: 1 })).rows.map((row) => row.bin)).to.deep.equal(['bbb']);
      const filtered = async (q: string, offset = 0, limit = 10) => {
        const { total, rows } = await b.page({ q, offset, limit });
        return { total, bins: rows.map((row) => row.bin) };
      };
      expect(await filtered('PLAIN')).to.deep.equal({ total: 2, bins: ['ccc', 'bbb'] });
      expect(await filtered('ÜNÏ')).to.deep.equal({ total: 1, bins: ['aaa'] });
      expect(await filtered('bb')).to.deep.equal({ total: 1, bins: ['bbb'] });
      expect(await filtered('gone')).to.deep.equal({ total: 0, bins: [] });
      expect(await filtered('plain', 1, 5)).to.deep.equal({ total: 2, bins: ['bbb'] });
    });

    it('filters a list longer than one scan chunk, counting every match', async () => {
      const count = 1_234;
      const base = Date.UTC(2024, 0, 1);
      await Promise.all(
        Array.from({ length: count }, (_, i) => {
          const r = revision(i % 3 === 0 ? `needle ${i}` : `hay ${i}`, new Date(base + Math.floor(i / 2) * 1000).toISOString());
          return a.save(`bin${String(i).padStart(4, '0')}`, r, headOf(1, r), undefined);
        }),
      );
      const expected = Array.from({ length: count }, (_, i) => i)
        .filter((i) => i % 3 === 0)
        .map((i) => `bin${String(i).padStart(4, '0')}`)
        .sort((x, y) => (x < y ? 1 : -1)); // later saves have later times; ties by id descending
      const page = await b.page({ q: 'NEEDLE', offset: 400, limit: 20 });
      expect(page.total).to.equal(expected.length);
      expect(page.rows.map((row) => row.bin)).to.deep.equal(expected.slice(400, 420));
      expect((await b.page({ offset: 0, limit: 0 })).total).to.equal(count);
    });

    it('keeps the template, and forgets it', async () => {
      expect(await a.template.get()).to.equal(undefined);
      const template = { html: '<p>ß</p>', javascript: '', css: '', settings: { deep: { x: [1] } }, updated: created };
      await a.template.set(template);
      expect(await b.template.get()).to.deep.equal(template);
      await b.template.clear();
      expect(await a.template.get()).to.equal(undefined);
    });

    it("tells an engine the other engines' changes, not its own", async () => {
      const seen = { a: [] as Change[], b: [] as Change[] };
      a.changes!.subscribe((change) => seen.a.push(change), () => {});
      b.changes!.subscribe((change) => seen.b.push(change), () => {});
      const r = revision('one');
      await a.save('abc', r, headOf(1, r), undefined);
      await a.remove('abc', 1, { ...headOf(0, r), next: 2 });
      await a.template.clear();
      await b.template.set({ html: '', javascript: '', css: '', settings: {}, updated: created });
      // One channel, in publish order: once A has B's notice, it would have had its own before it.
      await until(() => seen.a.length > 0 && seen.b.length === 3);
      expect(seen.b).to.deep.equal([{ bin: 'abc' }, { bin: 'abc', rev: 1 }, { template: true }]);
      expect(seen.a).to.deep.equal([{ template: true }]);
    });

    it('publishes a notice as {from, ...change}, the fields a PostgreSQL notice carries', async () => {
      const listener = createClient({ url: await sharedRedis() });
      await listener.connect();
      try {
        const payloads: string[] = [];
        await listener.subscribe(`${prefix}changes`, (payload) => payloads.push(payload));
        const r = revision('one');
        await a.save('abc', r, headOf(1, r), undefined);
        await until(() => payloads.length === 1);
        const notice = JSON.parse(payloads[0]!) as Record<string, unknown>;
        expect(Object.keys(notice)).to.deep.equal(['from', 'bin']);
        expect(notice.bin).to.equal('abc');
      } finally {
        listener.destroy();
      }
    });

    it('writes and notifies nothing for a save that lost', async () => {
      const seen: Change[] = [];
      b.changes!.subscribe((change) => seen.push(change), () => {});
      const r = revision('one');
      await a.save('abc', r, headOf(1, r), undefined);
      expect(await a.save('abc', r, headOf(1, r), undefined)).to.equal(false);
      await a.template.clear();
      await until(() => seen.length === 2);
      expect(seen).to.deep.equal([{ bin: 'abc' }, { template: true }]);
    });

    it('refuses a store a newer snippetkit wrote', async () => {
      const client = createClient({ url: await sharedRedis() });
      await client.connect();
      try {
        await client.hSet(`${prefix}schema`, 'bins', '2');
      } finally {
        client.destroy();
      }
      const failure = await openRedisBins(await sharedRedis(), { prefix }).catch((err: unknown) => err);
      expect(failure).to.be.instanceOf(DataFileError);
      expect((failure as Error).message).to.match(/written by a newer snippetkit \(schema 2\); upgrade it$/);
    });
  });

  describe('on a server of its own', () => {
    const own = ownServerPerTest(startRedis, (url) => openRedisBins(url, { prefix: 'x:' }));

    it('says its notices may be missed while its connection is down, and when it listens again', async () => {
      const a = await own.open();
      const b = await own.open();
      const states: boolean[] = [];
      const seen: Change[] = [];
      b.changes!.subscribe((change) => seen.push(change), (listening) => states.push(listening));
      expect(await own.server.disconnectClients()).to.be.greaterThan(0);
      await until(() => states.length === 2);
      expect(states).to.deep.equal([false, true]);
      // Listening again for real: a change made now arrives.
      await until(async () => {
        try {
          await a.template.clear();
          return true;
        } catch (err) {
          if (err instanceof StoreUnavailable) return false;
          throw err;
        }
      });
      await until(() => seen.length > 0);
      expect(seen[0]).to.deep.equal({ template: true });
    });

    it('answers StoreUnavailable at once while Redis is down, and serves again once it is back', async () => {
      const engine = await own.open();
      const states: boolean[] = [];
      engine.changes!.subscribe(() => {}, (listening) => states.push(listening));
      await own.server.stop();
      const started = Date.now();
      for (const attempt of [() => engine.head('abc'), () => engine.save('abc', revision('x'), headOf(1, revision('x')), undefined)]) {
        const failure = await attempt().catch((err: unknown) => err);
        expect(failure).to.be.instanceOf(StoreUnavailable);
        expect(clientError(failure)?.status).to.equal(503);
      }
      expect(Date.now() - started).to.be.below(2_500);
      await own.server.start();
      // The same engine, reconnected (100 ms doubling to 2 s): the restarted Redis is empty,
      // its script cache too.
      const r = revision('after');
      await until(async () => {
        try {
          return await engine.save('abc', r, headOf(1, r), undefined);
        } catch (err) {
          if (err instanceof StoreUnavailable) return false;
          throw err;
        }
      }, 15_000);
      expect(await engine.read('abc', undefined)).to.deep.equal({ head: headOf(1, r), revision: r });
      await until(() => states.at(-1) === true, 15_000);
      expect(states).to.deep.equal([false, true]);
    });

    it('refuses to open when Redis cannot be reached, naming the URL without its password', async () => {
      await own.server.stop();
      const url = own.server.url.replace('redis://', 'redis://someone:secret@');
      const failure = await openRedisBins(url).catch((err: unknown) => err);
      expect(failure).to.be.instanceOf(DataFileError);
      expect((failure as Error).message).to.equal(
        `cannot connect to Redis at redis://someone@127.0.0.1:${own.server.port}: ECONNREFUSED (connect ECONNREFUSED 127.0.0.1:${own.server.port})`,
      );
    });
  });

  it('names a Redis by its URL without the password', () => {
    expect(withoutPassword('redis://user:pw@host:6380/2')).to.equal('redis://user@host:6380/2');
    expect(withoutPassword('rediss://:pw@host:6380')).to.equal('rediss://host:6380');
    expect(withoutPassword('redis://host:6379/0')).to.equal('redis://host:6379/0');
  });
});

import { expect } from 'chai';
import type { EndpointSave, MockEngine } from '../../src/mocks/engines/engine.js';
import type { LoggedRequest } from '../../src/mocks/log/request-log.js';
import { listen } from '../helpers/heard-changes.js';
import { loggedRequest, storedMock } from '../helpers/mock-records.js';
import { MOCK_ENGINES, mockEnginesPerTest } from '../helpers/mock-engines.js';

// What every mock engine does, the same on each (src/mocks/engines/engine.ts).

const save = (name: string, fields: Partial<EndpointSave> = {}): EndpointSave => ({
  name,
  hits: 0,
  lastCall: null,
  sequence: 0,
  entries: [],
  skipped: 0,
  keep: 100,
  ...fields,
});

for (const kind of MOCK_ENGINES) {
  describe(`the ${kind.name} mock engine`, function () {
    this.timeout(30_000); // a throwaway server's first start on a loaded machine
    const each = mockEnginesPerTest(kind);
    const open = () => each.open();
    let engine: MockEngine;
    beforeEach(async () => {
      engine = await open();
    });
    const urls = async (name: string) => {
      const saved = (await engine.stats.load(100)).get(name);
      return saved?.entries.map(({ seq, entry }) => `${seq} ${(JSON.parse(entry) as LoggedRequest).url}`);
    };

    it('puts, replaces, reads and deletes endpoint records', async () => {
      await engine.endpoints.put(storedMock('a', '1'));
      await engine.endpoints.put(storedMock('b', '2'));
      await engine.endpoints.put(storedMock('a', '3'));
      const all = (await engine.endpoints.all()).map((r) => `${r.name} ${r.json}`).sort();
      expect([all, (await engine.endpoints.get('a'))?.json]).to.deep.equal([['a 3', 'b 2'], '3']);
      expect([await engine.endpoints.delete('a'), await engine.endpoints.delete('a'), await engine.endpoints.get('a')])
        .to.deep.equal([true, false, undefined]);
    });

    it('saves, loads and drops a collection state, each save one version on', async () => {
      const saves = [
        await engine.collections.save('posts', { seed: 's', value: '[1]' }, 0),
        await engine.collections.save('posts', { seed: 's', value: '[1,2]' }, 1),
      ];
      const loaded = await engine.collections.load('posts');
      await engine.collections.drop('posts');
      expect([saves, loaded, await engine.collections.load('posts')]).to.deep.equal([
        [true, true],
        { seed: 's', value: '[1,2]', version: 2 },
        undefined,
      ]);
    });

    it('saves a collection state only at the expected version, and writes nothing otherwise', async () => {
      const refused = [
        await engine.collections.save('posts', { seed: 's', value: '[9]' }, 1), // none stored: version 0
        await engine.collections.save('posts', { seed: 's', value: '[1]' }, 0),
        await engine.collections.save('posts', { seed: 's', value: '[9]' }, 0), // stale
        await engine.collections.save('posts', { seed: 'x', value: '[9]' }, 2), // ahead
      ];
      expect([refused, await engine.collections.load('posts')]).to.deep.equal([
        [false, true, false, false],
        { seed: 's', value: '[1]', version: 1 },
      ]);
      // A drop is a reset: a new state starts again from version 0.
      await engine.collections.drop('posts');
      expect(await engine.collections.save('posts', { seed: 's', value: '[2]' }, 0)).to.equal(true);
    });

    it('adds hits to the stored count, keeps the later lastCall and replaces the sequence place', async () => {
      await engine.stats.save([save('a', { hits: 3, lastCall: '2026-01-02T00:00:00.000Z', sequence: 1 })]);
      // As another instance, whose last call was earlier, would save.
      await engine.stats.save([save('a', { hits: 2, lastCall: '2026-01-01T00:00:00.000Z', sequence: 0 })]);
      await engine.stats.save([save('a', { hits: 0, lastCall: null, sequence: 2 })]);
      const { hits, lastCall, sequence } = (await engine.stats.load(100)).get('a')!;
      expect({ hits, lastCall, sequence }).to.deep.equal({ hits: 5, lastCall: '2026-01-02T00:00:00.000Z', sequence: 2 });
    });

    it('appends entries numbered on from the newest, after the skipped ones', async () => {
      await engine.stats.save([save('a', { entries: [loggedRequest('/1'), loggedRequest('/2')] }), save('b', { entries: [loggedRequest('/b')] })]);
      await engine.stats.save([save('a', { entries: [loggedRequest('/5')], skipped: 2 })]);
      expect([await urls('a'), await urls('b')]).to.deep.equal([['1 /1', '2 /2', '5 /5'], ['1 /b']]);
    });

    it("keeps each saved log's newest `keep` entries", async () => {
      await engine.stats.save([save('a', { entries: [loggedRequest('/1'), loggedRequest('/2'), loggedRequest('/3')], keep: 2 })]);
      await engine.stats.save([save('a', { entries: [loggedRequest('/4')], keep: 2 })]);
      expect(await urls('a')).to.deep.equal(['3 /3', '4 /4']);
    });

    it('writes none of a batch that fails part-way', async () => {
      const bad = { ...save('b', { entries: [loggedRequest('/b')] }), name: null as unknown as string };
      // An endpoint without a name, after a good one: the store refuses it.
      const failure = await engine.stats.save([save('a', { hits: 1, entries: [loggedRequest('/a')] }), bad]).then(
        () => undefined,
        (err: Error) => err,
      );
      expect([failure instanceof Error, (await engine.stats.load(100)).size]).to.deep.equal([true, 0]);
    });

    it('clears a log, keeping its counters, and forgets endpoints whole', async () => {
      await engine.stats.save([save('a', { hits: 2, entries: [loggedRequest('/a')] }), save('b', { hits: 1, entries: [loggedRequest('/b')] })]);
      await engine.stats.clearLog('a');
      const cleared = (await engine.stats.load(100)).get('a');
      await engine.stats.forget(['a', 'b']);
      expect([cleared?.hits, cleared?.entries, (await engine.stats.load(100)).size]).to.deep.equal([2, [], 0]);
    });

    it('cuts each log to the log size at load', async () => {
      await engine.stats.save([save('a', { entries: [loggedRequest('/1'), loggedRequest('/2'), loggedRequest('/3')] })]);
      await engine.stats.load(1);
      expect(await urls('a')).to.deep.equal(['3 /3']);
    });

    describe('shared by several instances', () => {
      beforeEach(function () {
        if (!each.space.shared) this.skip(); // one SQLite file has one writer
      });

      it("adds both instances' hits and keeps both instances' entries, numbered apart", async () => {
        const other = await open();
        await Promise.all([
          engine.stats.save([save('a', { hits: 2, entries: [loggedRequest('/1'), loggedRequest('/2')] })]),
          other.stats.save([save('a', { hits: 1, entries: [loggedRequest('/3')] })]),
        ]);
        const saved = (await engine.stats.load(100)).get('a')!;
        const seqs = saved.entries.map((e) => e.seq);
        expect([saved.hits, new Set(seqs).size, seqs.length]).to.deep.equal([3, 3, 3]);
      });

      it("lands one of two instances' saves of a collection from the same version", async () => {
        const other = await open();
        for (const version of [0, 1]) {
          const landed = await Promise.all([
            engine.collections.save('posts', { seed: 's', value: `["a${version}"]` }, version),
            other.collections.save('posts', { seed: 's', value: `["b${version}"]` }, version),
          ]);
          expect(landed.filter(Boolean)).to.have.length(1);
        }
        expect((await other.collections.load('posts'))?.version).to.equal(2);
      });

      it('tells the others of record and collection changes, and not the writer', async () => {
        const other = await open();
        const mine = listen(engine);
        const theirs = listen(other);
        await engine.endpoints.put(storedMock('a', '1'));
        await engine.collections.save('a', { seed: 's', value: '[]' }, 0);
        // A save that does not land tells no one.
        expect(await engine.collections.save('a', { seed: 's', value: '[1]' }, 0)).to.equal(false);
        await engine.endpoints.delete('a');
        await theirs.until(() => theirs.changes.length >= 3);
        await other.endpoints.put(storedMock('z', '1'));
        await mine.until(() => mine.changes.length >= 1);
        expect([theirs.changes, mine.changes]).to.deep.equal([
          [{ endpoint: 'a' }, { collection: 'a' }, { endpoint: 'a' }],
          [{ endpoint: 'z' }],
        ]);
      });
    });
  });
}

import { expect } from 'chai';
import { join } from 'node:path';
import type { BinEngine, Head } from '../../src/bins/bin-engine.js';
import { openSqliteBins } from '../../src/bins/sqlite-bins.js';
import type { Revision } from '../../src/bins/store.js';
import { tempDir } from '../helpers/temp.js';

const created = '2024-05-06T07:08:09.000Z';
const revision = (html: string): Revision => ({ html, javascript: '', css: '', settings: { a: 1 }, created });
const head = (latest: number, summary: string): Head => ({
  latest,
  next: latest + 1,
  created,
  updated: created,
  summary,
  folded: summary.toLowerCase(),
});

describe('the SQLite bin engine', () => {
  let temp: ReturnType<typeof tempDir>;
  let engine: BinEngine;
  beforeEach(async () => {
    temp = tempDir();
    engine = await openSqliteBins(join(temp.dir, 'bins.sqlite'));
  });
  afterEach(async () => {
    await engine.close();
    temp.cleanup();
  });

  it('writes a revision and its head in one save', async () => {
    expect(await engine.save('abc', revision('one'), head(1, 'One'), true)).to.equal(true);
    expect(await engine.read('abc', undefined)).to.deep.equal({ head: head(1, 'One'), revision: revision('one') });
  });

  it('refuses a save to a random id that a bin has, and writes nothing', async () => {
    await engine.save('abc', revision('one'), head(1, 'One'), false);
    const claimed = await engine.save('abc', revision('two'), head(2, 'Two'), true);
    expect([claimed, await engine.head('abc'), await engine.revisions('abc')]).to.deep.equal([
      false,
      head(1, 'One'),
      [{ rev: 1, created }],
    ]);
  });

  it('deletes the latest revision and moves the head in one write', async () => {
    await engine.save('abc', revision('one'), head(1, 'One'), false);
    await engine.save('abc', revision('two'), head(2, 'Two'), false);
    await engine.remove('abc', 2, { ...head(1, 'One'), next: 3 });
    expect([await engine.head('abc'), await engine.revision('abc', 2)]).to.deep.equal([
      { ...head(1, 'One'), next: 3 },
      undefined,
    ]);
  });
});

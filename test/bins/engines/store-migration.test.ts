import { expect } from 'chai';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBinStore, type BinStore } from '../../../src/bins/store/store.js';
import { type Revision } from '../../../src/bins/engines/records.js';
import { onFile, writeOldFile } from '../../helpers/old-bins-file.js';
import { tempDir } from '../../helpers/temp.js';

/**
 * Written by the build before the bins had tables of their own (Keyv records, and the `bin_list` table
 * its triggers kept): alpha 1 and 3 (2 deleted), beta 1 with a row 2 above its head (a delete cut
 * short), gone (all deleted), and a template.
 */
const FIXTURE = fileURLToPath(new URL('../../fixtures/bins/keyv-layout.sqlite', import.meta.url));
const panels = (fields: Partial<Revision>) => ({ html: '', javascript: '', css: '', settings: {}, ...fields });

describe('opening a file that keeps the bins as Keyv records', () => {
  let temp: ReturnType<typeof tempDir>;
  let file: string;
  let store: BinStore;
  beforeEach(async () => {
    temp = tempDir();
    file = join(temp.dir, 'bins.sqlite');
    copyFileSync(FIXTURE, file);
    store = await openBinStore(file);
  });
  afterEach(async () => {
    await store.close();
    temp.cleanup();
  });
  const raw = async (sql: string) => {
    await store.close();
    let rows: unknown[] = [];
    await onFile(file, async (run) => {
      rows = await run(sql);
    });
    return rows;
  };

  it('reads each bin and revision as it was saved', async () => {
    const latest = await store.get('alpha');
    const first = await store.get('alpha', 1);
    expect([latest?.rev, latest?.html, latest?.settings, first?.html]).to.deep.equal([
      3,
      '<p>Alpha three</p>',
      { processors: { css: 'scss' } },
      '<p>Alpha one</p>',
    ]);
  });

  it('keeps a deleted revision deleted', async () => {
    expect([await store.get('alpha', 2), (await store.revisions('alpha')).map((r) => r.rev)]).to.deep.equal([
      undefined,
      [3, 1],
    ]);
  });

  it('leaves out a revision above its head, left by a delete cut short', async () => {
    expect([await store.get('beta', 2), (await store.revisions('beta')).map((r) => r.rev)]).to.deep.equal([undefined, [1]]);
  });

  it('gives the next saves the numbers after the last ones given', async () => {
    const beta = await store.append('beta', () => panels({ html: 'again' }));
    const gone = await store.append('gone', () => panels({ html: 'back' }));
    expect([beta.rev, gone.rev]).to.deep.equal([3, 2]);
  });

  it('lists the bins with their summaries and revision counts', async () => {
    const { rows, total } = await store.page({ offset: 0, limit: 50 });
    const shown = rows.map(({ bin, latest, revisionCount, summary }) => ({ bin, latest, revisionCount, summary }));
    expect([shown, total]).to.deep.equal([
      [
        { bin: 'beta', latest: 1, revisionCount: 1, summary: 'console.log("Beta")' },
        { bin: 'alpha', latest: 3, revisionCount: 2, summary: 'Alpha three' },
      ],
      2,
    ]);
  });

  it('keeps the template', async () => {
    expect((await store.template())?.html).to.equal('<p>Template</p>');
  });

  it("moves the bins out of Keyv's table, leaving the template there", async () => {
    expect(await raw('SELECT key FROM keyv ORDER BY key')).to.deep.equal([{ key: 'bins::template' }]);
  });

  it('drops the list table and triggers the build before kept, and records the schema', async () => {
    const left = await raw(`SELECT name FROM sqlite_master WHERE name GLOB 'bin_list*'
      UNION ALL SELECT part || ' ' || version FROM snippetkit_schema ORDER BY 1`);
    expect(left).to.deep.equal([{ name: 'bins 2' }]);
  });

  it('reads the same after a restart, with nothing left to move', async () => {
    await store.close();
    store = await openBinStore(file);
    expect([(await store.get('alpha'))?.html, (await store.page({ offset: 0, limit: 50 })).total]).to.deep.equal([
      '<p>Alpha three</p>',
      2,
    ]);
  });
});

describe('moving the bins out of Keyv records, when it fails part-way', () => {
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    temp = tempDir();
  });
  afterEach(() => temp.cleanup());

  it('leaves the file as it was, and refuses to start', async () => {
    const file = join(temp.dir, 'bins.sqlite');
    const created = '2020-01-02T03:04:05.000Z';
    await writeOldFile(file, {
      good: { latest: 1, next: 2, created, updated: created },
      'good/1': panels({ html: 'good', created }),
      bad: { latest: 1, next: 2, created, updated: created },
    });
    // A revision that is not JSON: reading it fails the move once its tables are made, inside its transaction.
    await onFile(file, (run) => run("INSERT INTO keyv VALUES ('bins:bad/1', 'not json')").then(() => {}));
    let before: unknown[] = [];
    await onFile(file, async (run) => {
      before = await run('SELECT key, value FROM keyv ORDER BY key');
    });

    const failure = await openBinStore(file).then(
      async (store) => store.close(),
      (err: Error) => err.message,
    );
    let after: unknown[] = [];
    let tables: unknown[] = [];
    await onFile(file, async (run) => {
      after = await run('SELECT key, value FROM keyv ORDER BY key');
      tables = await run("SELECT name FROM sqlite_master WHERE name GLOB 'bin_*'");
    });
    expect([failure, after, tables]).to.deep.equal(['SQLITE_ERROR: malformed JSON', before, []]);
  });
});

describe('a file whose bins a newer snippetkit wrote', () => {
  it('is refused, naming the file', async () => {
    const temp = tempDir();
    try {
      const file = join(temp.dir, 'bins.sqlite');
      await (await openBinStore(file)).close();
      await onFile(file, (run) => run("UPDATE snippetkit_schema SET version = 3 WHERE part = 'bins'").then(() => {}));
      const failure = await openBinStore(file).then(
        async (store) => store.close(),
        (err: Error) => err.message,
      );
      expect(failure).to.equal(`the bins in the data file ${file} were written by a newer snippetkit (schema 3); upgrade it`);
    } finally {
      temp.cleanup();
    }
  });
});

/** Written by the release whose bin tables were schema 1 (commit 1417878): see test/fixtures/bins/README.md. */
const TABLES_V1 = fileURLToPath(new URL('../../fixtures/bins/tables-v1.sqlite', import.meta.url));

describe('opening a file whose bin tables an earlier release made (schema 1)', () => {
  let temp: ReturnType<typeof tempDir>;
  let file: string;
  let store: BinStore;
  beforeEach(async () => {
    temp = tempDir();
    file = join(temp.dir, 'bins.sqlite');
    copyFileSync(TABLES_V1, file);
    store = await openBinStore(file);
  });
  afterEach(async () => {
    await store.close();
    temp.cleanup();
  });

  it('reads its bins, deleted revisions still deleted, and its template', async () => {
    const latest = await store.get('alpha');
    expect([latest?.rev, latest?.settings, (await store.revisions('alpha')).map((r) => r.rev)]).to.deep.equal([
      3,
      { processors: { css: 'scss' } },
      [3, 1],
    ]);
    expect([(await store.get('beta'))?.html, (await store.template())?.html]).to.deep.equal(['<p>Beta 1</p>', '<p>Template</p>']);
  });

  it('saves and deletes through the new conditional writes, numbering on', async () => {
    expect((await store.append('alpha', () => panels({ html: 'four' }))).rev).to.equal(4);
    expect((await store.append('beta', () => panels({ html: 'three' }))).rev).to.equal(3);
    expect(await store.remove('alpha')).to.deep.equal({ bin: 'alpha', rev: 4 });
    expect((await store.get('alpha'))?.rev).to.equal(3);
    await store.close();
    await onFile(file, async (run) => {
      expect(await run("SELECT part, version FROM snippetkit_schema WHERE part = 'bins'")).to.deep.equal([
        { part: 'bins', version: 2 },
      ]);
    });
  });
});

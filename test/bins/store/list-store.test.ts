import { expect } from 'chai';
import { join } from 'node:path';
import { notifySaves } from '../../../src/bins/store/store-events.js';
import { openBinStore, type BinStore } from '../../../src/bins/store/store.js';
import { type Revision } from '../../../src/bins/engines/records.js';
import { nextMillisecond } from '../../helpers/clock.js';
import { writeOldFile } from '../../helpers/old-bins-file.js';
import { tempDir } from '../../helpers/temp.js';

const panels = (fields: Partial<Revision>) => ({ html: '', javascript: '', css: '', settings: {}, ...fields });

describe('BinStore.page', () => {
  let temp: ReturnType<typeof tempDir>;
  let store: BinStore;
  beforeEach(async () => {
    temp = tempDir();
    store = await openBinStore(join(temp.dir, 'bins.sqlite'));
  });
  afterEach(async () => {
    await store.close();
    temp.cleanup();
  });

  const save = async (bin: string, fields: Partial<Revision>) => {
    const saved = await store.append(bin, () => panels(fields));
    nextMillisecond();
    return saved;
  };
  const ids = async (q?: string) => (await store.page({ q, offset: 0, limit: 50 })).rows.map((row) => row.bin);

  it('pages the bins last saved first, with the total', async () => {
    for (const bin of ['one', 'two', 'three']) await save(bin, { html: bin });
    await save('one', { html: 'one again' });
    const first = await store.page({ offset: 0, limit: 2 });
    const second = await store.page({ offset: 2, limit: 2 });
    expect([first.rows.map((row) => row.bin), first.total]).to.deep.equal([['one', 'three'], 3]);
    expect([second.rows.map((row) => row.bin), second.total]).to.deep.equal([['two'], 3]);
  });

  it("gives each row its latest revision's number, time and summary", async () => {
    await save('abc', { html: '<p>First</p>' });
    const latest = await save('abc', { html: '<p>Second</p>' });
    const { rows } = await store.page({ offset: 0, limit: 50 });
    expect(rows).to.deep.equal([{ bin: 'abc', latest: 2, revisionCount: 2, updated: latest.created, summary: 'Second' }]);
  });

  it('counts the revisions a bin keeps, not the numbers it gave', async () => {
    for (const html of ['a', 'b', 'c']) await save('abc', { html });
    await store.remove('abc', 2);
    const [row] = (await store.page({ offset: 0, limit: 50 })).rows;
    expect([row?.latest, row?.revisionCount]).to.deep.equal([3, 2]);
  });

  it("shows the previous revision's summary once the latest is deleted", async () => {
    await save('abc', { html: '<p>First</p>' });
    await save('abc', { html: '<p>Second</p>' });
    await store.remove('abc');
    const [row] = (await store.page({ offset: 0, limit: 50 })).rows;
    expect([row?.latest, row?.revisionCount, row?.summary]).to.deep.equal([1, 1, 'First']);
  });

  it('leaves out a bin whose revisions were all deleted', async () => {
    await save('kept', { html: 'kept' });
    await save('gone', { html: 'gone' });
    await store.remove('gone');
    const { rows, total } = await store.page({ offset: 0, limit: 50 });
    expect([rows.map((row) => row.bin), total]).to.deep.equal([['kept'], 1]);
  });

  it('leaves out the server\'s template, which is no bin', async () => {
    await save('abc', { html: '<p>a bin</p>' });
    await store.setTemplate({ ...panels({ html: '<p>template</p>' }) });
    expect(await ids()).to.deep.equal(['abc']);
  });

  it('takes % and _ in a filter as themselves', async () => {
    await save('pct', { html: '100% done' });
    await save('snake', { html: 'snake_case' });
    await save('plain', { html: 'plain text' });
    expect([await ids('%'), await ids('_'), await ids('e_c')]).to.deep.equal([['pct'], ['snake'], ['snake']]);
  });

  it('matches a filter in the id or the summary, in any case', async () => {
    await save('hello', { html: 'nothing here' });
    await save('other', { javascript: 'say("HELLO")' });
    await save('third', { css: 'p {}' });
    expect(await ids('Hello')).to.deep.equal(['other', 'hello']);
  });

  it('ignores case beyond ASCII letters too', async () => {
    await save('umlaut', { html: '<p>Über Straße</p>' });
    await save('greek', { html: '<p>ΣΟΦΙΑ</p>' });
    expect([await ids('üBER'), await ids('σοφια')]).to.deep.equal([['umlaut'], ['greek']]);
  });

  it('keeps the list across a restart, and in step after it', async () => {
    await save('before', { html: 'before' });
    await store.close();
    store = await openBinStore(join(temp.dir, 'bins.sqlite'));
    await save('after', { html: 'after' });
    expect(await ids()).to.deep.equal(['after', 'before']);
  });

  it('is passed on by notifySaves, as every store method is', async () => {
    await save('abc', { html: 'x' });
    const wrapped = notifySaves(store, () => {});
    expect(await wrapped.page({ offset: 0, limit: 50 })).to.deep.equal(await store.page({ offset: 0, limit: 50 }));
  });
});

describe('BinStore.page on a file an earlier release wrote, without summaries', () => {
  let temp: ReturnType<typeof tempDir>;
  let store: BinStore;
  const created = '2020-01-02T03:04:05.000Z';
  beforeEach(async () => {
    temp = tempDir();
    const file = join(temp.dir, 'bins.sqlite');
    await writeOldFile(file, {
      old: { latest: 2, next: 3, created, updated: created },
      'old/1': panels({ html: '<p>Old one</p>', created }),
      'old/2': panels({ javascript: 'console.log("Old two")', created }),
    });
    store = await openBinStore(file);
  });
  afterEach(async () => {
    await store.close();
    temp.cleanup();
  });

  it('lists the old bins with summaries made from their latest revisions', async () => {
    const { rows } = await store.page({ offset: 0, limit: 50 });
    expect(rows).to.deep.equal([
      { bin: 'old', latest: 2, revisionCount: 2, updated: created, summary: 'console.log("Old two")' },
    ]);
  });

  it('finds the old bins by their summaries', async () => {
    expect((await store.page({ q: 'old TWO', offset: 0, limit: 50 })).total).to.equal(1);
  });

  it('keeps an old bin in step once it is saved again', async () => {
    const saved = await store.append('old', () => panels({ html: '<p>Newer</p>' }));
    const [row] = (await store.page({ offset: 0, limit: 50 })).rows;
    expect(row).to.deep.equal({ bin: 'old', latest: 3, revisionCount: 3, updated: saved.created, summary: 'Newer' });
  });
});

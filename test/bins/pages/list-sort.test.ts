import { expect } from 'chai';
import { BAD_ORDER, BAD_SORT } from '../../../src/bins/pages/list-page.js';
import { KEYED, OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';
import { nextMillisecond } from '../../helpers/clock.js';

const panels = (html: string) => ({ html, javascript: '', css: '', settings: {} });
const rowsOf = (page: string) => [...page.matchAll(/<tr data-bin="([^"]+)"/g)].map((match) => match[1]);
/** Each sortable header's link and aria-sort, as `label href [state]`. */
const headersOf = (page: string) =>
  [...page.matchAll(/<th scope="col"(?: class="count")?(?: aria-sort="(\w+)")?><a href="([^"]+)">([^<]+)/g)].map(
    ([, state, href, label]) => `${label} ${href.replace(/&#38;/g, '&')}${state ? ` ${state}` : ''}`,
  );

describe('GET /list, sorted', () => {
  let server: TestBinServer;
  // Saved in this order, one millisecond apart; [bin, revisions].
  const bins: [string, number][] = [['kiwi', 2], ['apple', 1], ['mango', 3], ['fig', 1]];
  before(async () => {
    server = await startBinServer(OPEN);
    for (const [bin, count] of bins) {
      for (let i = 0; i < count; i++) await server.store.append(bin, () => panels(`<h1>${bin} fruit</h1>`));
      nextMillisecond();
    }
  });
  after(() => server.close());
  const text = async (path: string) => (await server.fetch(path)).text();

  const orders: [string, string[]][] = [
    ['/list', ['fig', 'mango', 'apple', 'kiwi']],
    ['/list?order=asc', ['kiwi', 'apple', 'mango', 'fig']],
    ['/list?sort=name', ['apple', 'fig', 'kiwi', 'mango']],
    ['/list?sort=name&order=desc', ['mango', 'kiwi', 'fig', 'apple']],
    ['/list?sort=revisions', ['mango', 'kiwi', 'fig', 'apple']],
    ['/list?sort=revisions&order=asc', ['apple', 'fig', 'kiwi', 'mango']],
    ['/list?sort=updated&order=desc', ['fig', 'mango', 'apple', 'kiwi']],
    ['/list?sort=name&q=g', ['fig', 'mango']],
  ];
  for (const [path, rows] of orders) {
    it(`orders ${path} as ${rows.join(', ')}`, async () => {
      expect(rowsOf(await text(path))).to.deep.equal(rows);
    });
  }

  it('marks the sorted column with aria-sort and links each header to its next order, keeping the filter', async () => {
    expect(headersOf(await text('/list'))).to.deep.equal([
      'Bin list?sort=name',
      'Last saved list?order=asc descending',
      'Revisions list?sort=revisions',
    ]);
    expect(headersOf(await text('/list?sort=name&q=i'))).to.deep.equal([
      'Bin list?q=i&sort=name&order=desc ascending',
      'Last saved list?q=i',
      'Revisions list?q=i&sort=revisions',
    ]);
    expect(headersOf(await text('/list?sort=revisions&order=asc'))[2]).to.equal('Revisions list?sort=revisions ascending');
  });

  it('keeps the order in the filter form', async () => {
    expect(await text('/list?sort=revisions&order=asc')).to.include(
      '<input type="hidden" name="sort" value="revisions"><input type="hidden" name="order" value="asc"><button>Filter</button>',
    );
    expect(await text('/list')).to.include('aria-label="Filter bins">\n    <button>Filter</button>');
  });

  const bad: [string, string][] = [
    ['/list?sort=size', BAD_SORT],
    ['/list?sort=', BAD_SORT],
    ['/list?sort=NAME', BAD_SORT],
    ['/list?order=up', BAD_ORDER],
    ['/list?sort=name&order=', BAD_ORDER],
  ];
  for (const [path, message] of bad) {
    it(`refuses ${path} with a 400 that says why`, async () => {
      const res = await server.fetch(path);
      expect(res.status).to.equal(400);
      expect(await res.text()).to.include(`<p>${message}</p>`);
    });
  }

  it('offers a Delete button per bin where anyone may write, and no read-only note', async () => {
    const page = await text('/list');
    expect(page).to.include('<button type="button" class="delete" data-revisions="3 revisions" aria-label="Delete mango">Delete</button>');
    expect(page).to.include('data-revisions="1 revision" aria-label="Delete fig"');
    expect(page).not.to.include('id="read-only"');
  });
});

describe('GET /list, paged in another order', () => {
  let server: TestBinServer;
  const bins = Array.from({ length: 60 }, (_, i) => `b${String(i).padStart(2, '0')}`);
  before(async () => {
    server = await startBinServer(OPEN);
    for (const bin of [...bins].reverse()) await server.store.append(bin, () => panels(`<p>${bin}</p>`));
  });
  after(() => server.close());

  it('sorts the whole list before paging, and keeps the order in the pager', async () => {
    const first = await (await server.fetch('/list?sort=name')).text();
    expect(rowsOf(first)).to.deep.equal(bins.slice(0, 50));
    expect(first).to.include('<a rel="next" href="list?sort=name&#38;page=2">Next →</a>');
    const second = await (await server.fetch('/list?sort=name&page=2')).text();
    expect(rowsOf(second)).to.deep.equal(bins.slice(50));
    expect(second).to.include('<a rel="prev" href="list?sort=name">← Previous</a>');
  });
});

for (const [name, config, deletable] of [
  ['read-only (no key set)', {}, false],
  ['keyed', KEYED, true],
] as const) {
  describe(`GET /list on a ${name} server`, () => {
    let server: TestBinServer;
    before(async () => {
      server = await startBinServer(config);
      await server.store.append('abc', () => panels('<p>x</p>'));
    });
    after(() => server.close());

    it(deletable ? 'offers Delete buttons and no note' : 'offers no Delete button, and a note saying why and what to set', async () => {
      const headers: Record<string, string> = 'ownership' in config ? { authorization: `token ${config.ownership.api_key}` } : {};
      const page = await (await server.fetch('/list', { headers })).text();
      expect(page.includes('class="delete"')).to.equal(deletable);
      expect(page.includes('<p class="note" id="read-only">This server is read-only')).to.equal(!deletable);
      if (!deletable) expect(page).to.include('<code>ownership.api_key</code>');
    });
  });
}

import { expect } from 'chai';
import { INVALID_KEY, KEY_NEEDED } from '../../../src/bins/auth/auth.js';
import { BAD_PAGE, FILTER_TOO_LONG, MAX_FILTER } from '../../../src/bins/pages/list-page.js';
import type { Revision } from '../../../src/bins/engines/records.js';
import { KEYED, OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';
import { nextMillisecond } from '../../helpers/clock.js';

const panels = (fields: Partial<Revision>) => ({ html: '', javascript: '', css: '', settings: {}, ...fields });

/** The ids of the page's rows, in order. */
const rowsOf = (page: string) => [...page.matchAll(/<tr data-bin="([^"]+)"/g)].map((match) => match[1]);

/** The row of `bin` on `page`, as markup. */
const rowOf = (page: string, bin: string) => new RegExp(`<tr data-bin="${bin}">.*?</tr>`).exec(page)?.[0] ?? '';

async function page(server: TestBinServer, path: string, headers: Record<string, string> = {}) {
  const res = await server.fetch(path, { headers, redirect: 'manual' });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

describe('GET /list (My bins)', () => {
  let server: TestBinServer;
  before(async () => {
    server = await startBinServer(OPEN);
    const save = async (bin: string, fields: Partial<Revision>) => {
      await server.store.append(bin, () => panels(fields));
      nextMillisecond();
    };
    await save('alpha', { html: '<h1>Alpha Title</h1>' });
    await save('beta', { javascript: 'let Beta = 1;' });
    await save('alpha', { html: '<h1>Alpha Again</h1>' });
    await save('gamma', { javascript: 'document.write("<script>x</script>")' });
  });
  after(() => server.close());

  it('lists the bins last saved first', async () => {
    expect(rowsOf((await page(server, '/list')).text)).to.deep.equal(['gamma', 'alpha', 'beta']);
  });

  it("shows a bin's summary, last saved time and revision count", async () => {
    const latest = (await server.store.get('alpha'))!;
    const row = rowOf((await page(server, '/list')).text, 'alpha');
    expect(row).to.include('<td class="summary">Alpha Again</td>');
    expect(row).to.include(`<time datetime="${latest.created}" title="${latest.created}">just now</time>`);
    expect(row).to.include('<td class="count">2</td>');
  });

  it("summarizes a bin without html by its javascript", async () => {
    expect(rowOf((await page(server, '/list')).text, 'beta')).to.include('<td class="summary">let Beta = 1;</td>');
  });

  it('links each row to its output and its editor, relative to the root', async () => {
    const row = rowOf((await page(server, '/list')).text, 'beta');
    expect(row).to.include('<a href="./beta" class="output">Output</a> <a href="./beta/edit" class="edit">Edit</a>');
  });

  it('escapes a summary that holds markup', async () => {
    const { text } = await page(server, '/list');
    expect(rowOf(text, 'gamma')).to.include(
      '<td class="summary">document.write(&#34;&#60;script&#62;x&#60;/script&#62;&#34;)</td>',
    );
    expect(text).not.to.include('<script>x');
  });

  it('runs our own script only, talking to our own API: a policy of its own', async () => {
    const { headers, text } = await page(server, '/list');
    expect(headers.get('content-security-policy')).to.match(/^default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline';/);
    expect(text).to.match(/<script type="module" src="\.\/static\/list-page\.js(\?v=[\w-]+)?"><\/script>/);
    expect(headers.get('cache-control')).to.equal('no-cache');
  });

  it('filters by id, in any case', async () => {
    expect(rowsOf((await page(server, '/list?q=ALPH')).text)).to.deep.equal(['alpha']);
  });

  it('filters by summary, in any case', async () => {
    expect(rowsOf((await page(server, '/list?q=let%20beta')).text)).to.deep.equal(['beta']);
  });

  it('keeps the filter in the box, escaped', async () => {
    const { text } = await page(server, '/list?q=%22%3E%3Cscript%3E');
    expect(text).to.include('<input type="search" name="q" value="&#34;&#62;&#60;script&#62;" maxlength="100"');
  });

  it('says so when the filter matches nothing', async () => {
    const { status, text } = await page(server, '/list?q=nothing-like-it');
    expect(status).to.equal(200);
    expect(text).to.include('<p class="empty">No bins match “nothing-like-it”. <a href="list">Show every bin</a></p>');
  });

  it(`accepts a filter of ${MAX_FILTER} characters`, async () => {
    expect((await page(server, `/list?q=${'a'.repeat(MAX_FILTER)}`)).status).to.equal(200);
  });

  it(`refuses a longer filter with a 400 that says why`, async () => {
    const { status, text } = await page(server, `/list?q=${'a'.repeat(MAX_FILTER + 1)}`);
    expect(status).to.equal(400);
    expect(text).to.include(`<p>${FILTER_TOO_LONG}</p>`);
  });

  for (const bad of ['0', '-1', 'two', '1.5', '12345678']) {
    it(`refuses page=${bad} with a 400 that says why`, async () => {
      const { status, text } = await page(server, `/list?page=${bad}`);
      expect(status).to.equal(400);
      expect(text).to.include(`<p>${BAD_PAGE}</p>`);
    });
  }
});

describe('GET /list, page by page', () => {
  let server: TestBinServer;
  // b000 … b119 saved in that order: last saved first is b119 … b000 (ties, if any, go by id, the same way).
  const bins = Array.from({ length: 120 }, (_, i) => `b${String(i).padStart(3, '0')}`);
  const newestFirst = [...bins].reverse();
  before(async () => {
    server = await startBinServer(OPEN);
    for (const [i, bin] of bins.entries()) await server.store.append(bin, () => panels({ html: `<p>Number ${i}</p>` }));
  });
  after(() => server.close());

  it('shows the 50 last saved on page 1, with a link to page 2 and none back', async () => {
    const { text } = await page(server, '/list');
    expect(rowsOf(text)).to.deep.equal(newestFirst.slice(0, 50));
    expect(text).to.include('<nav class="pages" aria-label="Pages"><span>Page 1 of 3 · <span class="total">120 bins</span></span>');
    expect(text).to.include('<a rel="next" href="list?page=2">Next →</a>');
    expect(text).not.to.include('rel="prev"');
  });

  it('shows the next 50 on page 2, with links both ways', async () => {
    const { text } = await page(server, '/list?page=2');
    expect(rowsOf(text)).to.deep.equal(newestFirst.slice(50, 100));
    expect(text).to.include('<a rel="prev" href="list">← Previous</a><span>Page 2 of 3 · <span class="total">120 bins</span></span>');
    expect(text).to.include('<a rel="next" href="list?page=3">Next →</a>');
  });

  it('shows the rest on the last page, with no link onwards', async () => {
    const { text } = await page(server, '/list?page=3');
    expect(rowsOf(text)).to.deep.equal(newestFirst.slice(100));
    expect(text).not.to.include('rel="next"');
  });

  it('answers a page past the last with a 404', async () => {
    expect((await page(server, '/list?page=4')).status).to.equal(404);
  });

  it('pages through a filter, keeping it in the links', async () => {
    const first = await page(server, '/list?q=b0');
    expect(rowsOf(first.text)).to.deep.equal(newestFirst.slice(20, 70));
    expect(first.text).to.include('<a rel="next" href="list?q=b0&#38;page=2">Next →</a>');
    const second = await page(server, '/list?q=b0&page=2');
    expect(rowsOf(second.text)).to.deep.equal(newestFirst.slice(70));
    expect(second.text).to.include('<a rel="prev" href="list?q=b0">← Previous</a>');
  });
});

describe('GET /list on an empty store', () => {
  let server: TestBinServer;
  before(async () => {
    server = await startBinServer(OPEN);
  });
  after(() => server.close());

  it('says there are no bins yet and links to the editor', async () => {
    const { status, text } = await page(server, '/list');
    expect(status).to.equal(200);
    expect(text).to.include('<p class="empty">No bins yet. <a href="./">Start a new bin</a>');
    expect(text).not.to.include('<table>');
  });
});

const KEY = KEYED.ownership.api_key;
const PRIVATE = { api: { allowAnonymousRead: false }, ownership: { api_key: KEY } };

for (const [name, config] of [
  ['a key is set (anonymous reads allowed)', KEYED],
  ['bins are private', PRIVATE],
] as const) {
  describe(`GET /list when ${name}`, () => {
    let server: TestBinServer;
    before(async () => {
      server = await startBinServer(config);
      await server.store.append('abc', () => panels({ html: '<p>Secret</p>' }));
    });
    after(() => server.close());

    it('refuses a request without the key with a 403 page that asks for it', async () => {
      const { status, text, headers } = await page(server, '/list');
      expect(status).to.equal(403);
      expect(text).to.include(`<p>${KEY_NEEDED}</p>`);
      expect(text).to.include('<input type="password" name="api_key"');
      expect(text).not.to.include('abc');
      expect(headers.get('cache-control')).to.equal('private, no-store');
    });

    it('refuses a wrong key with a 403', async () => {
      const { status, text } = await page(server, '/list', { authorization: 'token wrong' });
      expect(status).to.equal(403);
      expect(text).to.include(`<p>${INVALID_KEY}</p>`);
    });

    it('shows the bins to a request carrying the key', async () => {
      const { status, text, headers } = await page(server, '/list', { authorization: `token ${KEY}` });
      expect([status, rowsOf(text)]).to.deep.equal([200, ['abc']]);
      expect(headers.get('cache-control')).to.equal('private, no-store');
    });

    it('turns ?api_key= into the session cookie, and the cookie opens the list', async () => {
      const exchange = await page(server, `/list?api_key=${KEY}&q=ab`);
      expect([exchange.status, exchange.headers.get('location')]).to.deep.equal([303, './list?q=ab']);
      const cookie = exchange.headers.get('set-cookie')!.split(';')[0]!;
      const { status, text } = await page(server, '/list?q=ab', { cookie });
      expect([status, rowsOf(text)]).to.deep.equal([200, ['abc']]);
    });

    it('refuses a forged session cookie', async () => {
      const exchange = await page(server, `/list?api_key=${KEY}`);
      const name = exchange.headers.get('set-cookie')!.split('=')[0]!;
      expect((await page(server, '/list', { cookie: `${name}=forged` })).status).to.equal(403);
    });
  });
}

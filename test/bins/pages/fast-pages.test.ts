import { expect } from 'chai';
import { join } from 'node:path';
import { fastPages } from '../../../src/bins/pages/fast-pages.js';
import { createPageCache, outputKey, type PageCache } from '../../../src/bins/pages/page-cache.js';
import { framing } from '../../../src/bins/config/security-headers.js';
import { openBinStore, type BinStore } from '../../../src/bins/store/store.js';
import { binConfigWith } from '../../../src/bins/config/defaults.js';
import { listen, type RunningServer } from '../../../src/server/listen.js';
import { answer as answerWith, describeFastAndKoa, type Request } from '../../helpers/fast-and-koa.js';
import { tempDir } from '../../helpers/temp.js';

const REQUESTS: Request[] = [
  { path: '/hot' },
  { path: '/hot/1' },
  { path: '/hot/2' },
  { path: '/hot/latest' },
  { path: '/hot/quiet' },
  { path: '/hot/1/quiet' },
  { path: '/hot/latest/quiet' },
  { path: '/hot.html' },
  { path: '/hot/1.html' },
  { path: '/HOT' },
  { path: '/hot/0' },
  { path: '/hot/3' },
  { path: '/nosuch' },
  { path: '/edit' },
  { path: '/hot/' },
  { path: '/hot?quiet' },
  { path: '/own' },
  { method: 'HEAD', path: '/hot' },
  { method: 'HEAD', path: '/hot/1/quiet' },
];

const HEADERS = [
  'content-type',
  'content-length',
  'etag',
  'cache-control',
  'content-security-policy',
  'x-frame-options',
  'x-content-type-options',
  'x-mock',
  'set-cookie',
];

const answer = (server: RunningServer, request: Request) => answerWith(server, request, HEADERS);

async function fill(store: BinStore): Promise<void> {
  for (const html of ['<p>one ✓</p>', '<p>two</p>']) {
    await store.append('hot', () => ({ html, javascript: 'for (;;) {}', css: 'p{}', settings: {} }));
  }
  await store.append('own', () => ({ html: '<p>own</p>', javascript: '', css: '', settings: { statusCode: 404, headers: { 'X-Mock': 'y' } } }));
}

describe('the fast path for kept output pages answers exactly as the Koa route does', () => {
  const configs: [string, Record<string, unknown>][] = [
    ['default config', {}],
    ['reads closed', { api: { allowAnonymousRead: false }, ownership: { api_key: 'k' } }],
    ['framing by any site', { output: { frameAncestors: '*' } }],
  ];
  describeFastAndKoa(configs, fill, (servers) => {
    for (const request of REQUESTS) {
      it(`${request.method ?? 'GET'} ${request.path}, read a second time`, async () => {
        const { fast, koa } = servers();
        await answer(fast, request); // renders and keeps it
        expect(await answer(fast, request)).to.deep.equal(await answer(koa, request));
      });
    }
  });
});

describe('what the fast path for output pages leaves to the Koa app', () => {
  const temp = tempDir();
  let store: BinStore;
  let pages: PageCache;
  let server: RunningServer;
  const FALLBACK = 'left to Koa';
  const keep = (bin: string, rev: number, quiet = false, named = false) =>
    pages.get(outputKey(bin, rev, { quiet, root: named ? '../' : './', named, token: undefined }), async () => ({
      html: `<p>kept ${bin}/${rev}</p>`,
      transient: false,
    }));
  before(async () => {
    store = await openBinStore(join(temp.dir, 'bins.sqlite'));
    await fill(store);
    pages = createPageCache(1024 * 1024);
    await Promise.all([keep('hot', 2), keep('hot', 1, false, true), keep('own', 1)]);
    const config = binConfigWith({});
    server = await listen(
      fastPages({ store, config, framing: framing("'self'"), pages }, (_req, res) => res.end(FALLBACK)),
      0,
      '127.0.0.1',
    );
  });
  after(async () => {
    await server.close(100);
    await store.close();
    temp.cleanup();
  });

  it('answers a kept latest page itself', async () => {
    expect((await answer(server, { path: '/hot' })).body).to.equal('<p>kept hot/2</p>');
  });

  it('answers a kept numbered revision itself', async () => {
    expect((await answer(server, { path: '/hot/1' })).body).to.equal('<p>kept hot/1</p>');
  });

  const left: [string, Request][] = [
    ['a page not kept', { path: '/hot/quiet' }],
    ['a revision not there', { path: '/hot/3' }],
    ['a bin with its own status and headers', { path: '/own' }],
    ['a query string', { path: '/hot?live' }],
    ['a conditional GET', { path: '/hot', headers: { 'If-None-Match': '"x"' } }],
    ['an Authorization header', { path: '/hot', headers: { Authorization: 'token k' } }],
    ['an event stream', { path: '/hot', headers: { Accept: 'text/event-stream' } }],
    ['a POST', { method: 'POST', path: '/hot' }],
    ['a trailing slash', { path: '/hot/' }],
  ];
  it('leaves a revision the store does not keep in memory to the Koa app', async () => {
    // A file of its own: the server's store holds bins.sqlite, and one process opens a data file once.
    const uncached = await openBinStore(join(temp.dir, 'uncached.sqlite'), { heads: 0, revisionBytes: 0 });
    await fill(uncached);
    const handler = fastPages({ store: uncached, config: binConfigWith({}), framing: framing("'self'"), pages }, (_req, res) =>
      res.end(FALLBACK),
    );
    const other = await listen(handler, 0, '127.0.0.1');
    try {
      expect((await answer(other, { path: '/hot' })).body).to.equal(FALLBACK);
    } finally {
      await other.close(100);
      await uncached.close();
    }
  });

  for (const [what, request] of left) {
    it(`leaves ${what} to the Koa app`, async () => {
      expect((await answer(server, request)).body).to.equal(FALLBACK);
    });
  }
});

import { expect } from 'chai';
import type { BinStore } from '../../../src/bins/store/store.js';
import { answer, describeFastAndKoa } from '../../helpers/fast-and-koa.js';
import { startBinServer, type TestBinServer } from '../../helpers/bin-server.js';
import { openSse } from '../../helpers/sse.js';

const FORM = 'application/x-www-form-urlencoded';

type Save = { label: string; path: string; body: string | Buffer; headers?: Record<string, string> };

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

const SAVES: Save[] = [
  { label: 'a new bin', path: '/api/save', body: form({ html: '<p>new ✓</p>', css: 'p{}', javascript: 'x()' }) },
  { label: 'a revision of a bin', path: '/api/hot/save', body: form({ html: '<p>next</p>' }) },
  { label: 'an id in capitals', path: '/api/HOT/save', body: form({ html: 'caps' }) },
  { label: 'settings merged', path: '/api/hot/save', body: form({ html: 'x', settings: '{"b":2}' }) },
  { label: 'charset utf-8', path: '/api/save', body: form({ html: 'x' }), headers: { 'content-type': `${FORM}; charset=UTF-8` } },
  { label: 'a CORS origin', path: '/api/save', body: form({ html: 'x' }), headers: { Origin: 'http://elsewhere.test' } },
  { label: 'no content', path: '/api/save', body: form({ html: '  ', css: '' }) },
  { label: 'a panel twice', path: '/api/save', body: 'html=a&html=b' },
  { label: 'a broken %-escape', path: '/api/save', body: 'html=%E0%A4%A' },
  { label: 'invalid UTF-8', path: '/api/save', body: Buffer.from([0x68, 0x74, 0x6d, 0x6c, 0x3d, 0xff]) },
  { label: 'settings not JSON', path: '/api/hot/save', body: form({ html: 'x', settings: '{' }) },
  { label: 'too many headers in settings', path: '/api/save', body: form({ html: 'x', settings: JSON.stringify({ headers: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`x-h${i}`, 'v'])) }) }) },
  { label: 'blacklisted content', path: '/api/save', body: form({ html: 'buy forbidden pills' }) },
  { label: 'over the size limit', path: '/api/save', body: form({ html: 'x'.repeat(3000) }) },
  { label: 'a reserved id', path: '/api/static/save', body: form({ html: 'x' }) },
  { label: 'an id with an escape', path: '/api/h%6Ft/save', body: form({ html: 'x' }) },
  { label: 'a key in the query', path: '/api/save?api_key=nope', body: form({ html: 'x' }) },
  { label: 'a key in the header', path: '/api/save', body: form({ html: 'x' }), headers: { Authorization: 'token nope' } },
  { label: 'another charset', path: '/api/save', body: form({ html: 'x' }), headers: { 'content-type': `${FORM}; charset=latin1` } },
  { label: 'JSON', path: '/api/save', body: '{"html":"json"}', headers: { 'content-type': 'application/json' } },
  { label: 'an empty body', path: '/api/save', body: '' },
];

const HEADERS = ['content-type', 'content-length', 'access-control-allow-origin', 'vary', 'retry-after', 'set-cookie'];

/** An answer with what differs between two stores taken out: a new bin's id and the revision number. */
function comparable(result: Awaited<ReturnType<typeof answer>>) {
  if (result.status !== 200) return result;
  const body = JSON.parse(result.body) as { url: string; snapshot: number; summary: string };
  expect(result.headers[1]).to.equal(String(Buffer.byteLength(result.body)));
  return { ...result, headers: result.headers.slice(0, 1).concat(result.headers.slice(2)), body: { ...body, url: body.url.length, snapshot: typeof body.snapshot } };
}

describe('the fast path for API saves answers exactly as the Koa route does', () => {
  const open = { api: { allowAnonymousReadWrite: true }, 'max-request-size': 2048, blacklist: { html: ['forbidden'] } };
  const configs: [string, Record<string, unknown>][] = [
    ['anonymous writes open', open],
    ['a configured CORS origin', { ...open, cors: { origin: 'http://app.test' } }],
    ['writes need the key', { api: { allowAnonymousReadWrite: false }, ownership: { api_key: 'k' } }],
  ];
  const fill = (store: BinStore) => store.append('hot', () => ({ html: 'one', javascript: '', css: '', settings: { a: 1 } }));
  describeFastAndKoa(configs, fill, (servers) => {
    for (const save of SAVES) {
      it(save.label, async () => {
        const { fast, koa } = servers();
        const request = {
          method: 'POST',
          path: save.path,
          headers: { 'content-type': FORM, ...save.headers },
          body: save.body,
        };
        expect(comparable(await answer(fast, request, HEADERS))).to.deep.equal(comparable(await answer(koa, request, HEADERS)));
      });
    }
  });
});

describe('saves on the fast path', () => {
  let server: TestBinServer;
  beforeEach(async () => {
    server = await startBinServer({ api: { allowAnonymousReadWrite: true } });
  });
  afterEach(() => server.close());

  it('store what they answer, and move the bin\'s followers on to the new revision', async () => {
    const { url } = (await (await server.postForm('/api/save', { html: '<p>one</p>' })).json()) as { url: string };
    const watcher = await openSse(`${server.url}/${url}`);
    try {
      const saved = await (await server.postForm(`/api/${url}/save`, { html: '<p>two</p>', css: 'p{}' })).json();
      expect(saved).to.deep.equal({ url, snapshot: 2, summary: 'two' });
      expect((await watcher.next('bump-revision')).data).to.equal(`${url}/2`);
      const stored = await server.store.get(url, 2);
      expect([stored?.html, stored?.css]).to.deep.equal(['<p>two</p>', 'p{}']);
    } finally {
      watcher.close();
    }
  });
});

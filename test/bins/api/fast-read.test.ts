import { expect } from 'chai';
import { get } from 'node:http';
import type { BinStore } from '../../../src/bins/store/store.js';
import { OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';
import { answer, describeFastAndKoa, type Request } from '../../helpers/fast-and-koa.js';

const REQUESTS: Request[] = [
  { path: '/api/hot' },
  { path: '/api/hot/1' },
  { path: '/api/hot/2' },
  { path: '/api/hot/latest' },
  { path: '/api/hot/3' },
  { path: '/api/hot/99999999999999999999' },
  { path: '/api/HOT' },
  { path: '/api/nosuch' },
  { path: '/api/static' },
  { path: '/api/a.b' },
  { path: '/api/hot%2F1' },
  { path: '/api/hot?api_key=nope' },
  { path: '/api/hot', headers: { Authorization: 'token nope' } },
  { path: '/api/hot', headers: { Origin: 'http://elsewhere.test' } },
  { path: '/api/hot/live' },
  { path: '/api/compile' },
  { method: 'HEAD', path: '/api/hot' },
  { method: 'HEAD', path: '/api/nosuch' },
  { path: '/api/hot/1', headers: { 'If-None-Match': '*' } },
  { path: '/api/hot', headers: { 'If-None-Match': '"hot.1.x", W/"other"' } },
  { path: '/api/hot/1', headers: { 'If-None-Match': '*', 'Cache-Control': 'no-cache' } },
];

const HEADERS = ['etag', 'content-type', 'content-length', 'access-control-allow-origin', 'vary', 'set-cookie'];

describe('the fast path for API reads answers exactly as the Koa route does', () => {
  const configs: [string, Record<string, unknown>][] = [
    ['default config', {}],
    ['reads closed', { api: { allowAnonymousRead: false }, ownership: { api_key: 'k' } }],
    ['a configured CORS origin', { cors: { origin: 'http://app.test' } }],
  ];
  const fill = async (store: BinStore) => {
    for (const html of ['one ✓', 'two']) await store.append('hot', () => ({ html, javascript: 'x()', css: '', settings: { a: 1 } }));
  };
  describeFastAndKoa(configs, fill, (servers) => {
    for (const request of REQUESTS) {
      const label = `${request.method ?? 'GET'} ${request.path.slice(0, 40)}${request.headers ? ` (${Object.keys(request.headers)[0]})` : ''}`;
      it(label, async () => {
        const { fast, koa } = servers();
        expect(await answer(fast, request, HEADERS)).to.deep.equal(await answer(koa, request, HEADERS));
      });
    }
  });
});

describe('the fast path for API reads after a change to a bin it has answered from memory', () => {
  let server: TestBinServer;
  const admin = { ownership: { api_key: 'k' } };
  beforeEach(async () => {
    server = await startBinServer({ ...OPEN, ...admin });
    for (const html of ['one', 'two']) await server.postForm('/api/moving/save', { html });
  });
  afterEach(() => server.close());
  // node:http, not fetch: fetch adds Cache-Control: no-cache to a conditional request, which is never fresh.
  const read = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status?: number; etag?: string; body: string }>((resolve, reject) => {
      get(server.url + path, { headers }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode, etag: res.headers.etag, body }));
      }).on('error', reject);
    });

  it('serves a new save as the latest, and still the revision it served before by number', async () => {
    const before = await read('/api/moving');
    expect(JSON.parse(before.body)).to.include({ html: 'two', snapshot: 2 });
    await server.postForm('/api/moving/save', { html: 'three' });
    expect(JSON.parse((await read('/api/moving')).body)).to.include({ html: 'three', snapshot: 3 });
    expect(await read('/api/moving/2')).to.deep.equal(before);
  });

  it('answers the ETag of the old latest with the new one after a save, and with a 304 when it is still the latest', async () => {
    const { etag } = await read('/api/moving');
    expect(await read('/api/moving', { 'If-None-Match': etag! })).to.deep.equal({ status: 304, etag, body: '' });
    await server.postForm('/api/moving/save', { html: 'three' });
    const after = await read('/api/moving', { 'If-None-Match': etag! });
    expect(JSON.parse(after.body)).to.include({ snapshot: 3 });
    expect(after.status).to.equal(200);
    expect(after.etag).to.not.equal(etag);
  });

  it('serves the revision before a deleted latest, and a 404 for the deleted one', async () => {
    await read('/api/moving');
    await read('/api/moving/2');
    const removed = await server.fetch('/api/moving/2', { method: 'DELETE', headers: { Authorization: 'token k' } });
    expect(removed.status).to.equal(200);
    expect(JSON.parse((await read('/api/moving')).body)).to.include({ html: 'one', snapshot: 1 });
    expect(await read('/api/moving/2')).to.deep.equal({ status: 404, etag: undefined, body: '{"error":"not found"}' });
  });
});

import { expect } from 'chai';
import type { BinStore } from '../../../src/bins/store/store.js';
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

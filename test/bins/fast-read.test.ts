import { expect } from 'chai';
import { createBinApp, createBinHandler } from '../../src/bins/app.js';
import type { BinConfig } from '../../src/bins/config.js';
import { openBinStore, type BinStore } from '../../src/bins/store.js';
import { loadBinConfig, mergeDeep } from '../../src/cli/bin-config.js';
import { listen, type RunningServer } from '../../src/server/listen.js';
import { tempDir } from '../helpers/temp.js';
import { join } from 'node:path';

type Request = { method?: string; path: string; headers?: Record<string, string> };

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
  for (const [name, overrides] of configs) {
    describe(name, () => {
      const temp = tempDir();
      let store: BinStore;
      let fast: RunningServer;
      let koa: RunningServer;
      before(async () => {
        const config = mergeDeep(loadBinConfig(undefined, {}) as never, overrides as never) as unknown as BinConfig;
        store = await openBinStore(join(temp.dir, 'bins.sqlite'));
        for (const html of ['one ✓', 'two']) await store.append('hot', () => ({ html, javascript: 'x()', css: '', settings: { a: 1 } }));
        fast = await listen(createBinHandler({ store, config }), 0, '127.0.0.1');
        koa = await listen(createBinApp({ store, config }).callback(), 0, '127.0.0.1');
      });
      after(async () => {
        await Promise.all([fast.close(100), koa.close(100)]);
        await store.close();
        temp.cleanup();
      });

      for (const request of REQUESTS) {
        const label = `${request.method ?? 'GET'} ${request.path.slice(0, 40)}${request.headers ? ` (${Object.keys(request.headers)[0]})` : ''}`;
        it(label, async () => {
          const answers = await Promise.all(
            [fast, koa].map(async (server) => {
              const res = await fetch(server.url + request.path, { method: request.method, headers: request.headers });
              return { status: res.status, headers: HEADERS.map((h) => res.headers.get(h)), body: await res.text() };
            }),
          );
          expect(answers[0]).to.deep.equal(answers[1]);
        });
      }
    });
  }
});

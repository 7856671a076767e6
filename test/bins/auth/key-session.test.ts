import { expect } from 'chai';
import { INVALID_KEY, KEY_NEEDED } from '../../../src/bins/auth/auth.js';
import { startPrefixProxy } from '../../browser/prefix-proxy.js';
import { OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';

const KEY = 'the-private-key';
const PRIVATE = { api: { allowAnonymousRead: false }, ownership: { api_key: KEY } };

describe('giving the key once in a browser', () => {
  let server: TestBinServer;
  before(async () => {
    server = await startBinServer(PRIVATE);
    await server.store.append('abc', () => ({ html: '<p>x</p>', javascript: '', css: '', settings: {} }));
  });
  after(() => server.close());

  const exchanges: [string, string][] = [
    ['/abc/1/edit?api_key=KEY', './edit'],
    ['/abc?live&api_key=KEY&x=1', './abc?live&x=1'],
    ['/abc/1/edit?html,output&api_key=KEY', './edit?html,output'],
    ['/abc/edit?api%5Fkey=KEY&css,js', './edit?css,js'],
    ['/?api_key=KEY', './'],
  ];
  for (const [path, location] of exchanges) {
    it(`answers ${path} with a session cookie and a 303 to ${location}`, async () => {
      const res = await server.fetch(path.replace('KEY', KEY), { redirect: 'manual' });
      expect(res.status).to.equal(303);
      expect(res.headers.get('location')).to.equal(location);
      const cookie = res.headers.get('set-cookie')!;
      expect(cookie).to.match(/^snippetkit_[\w-]{10}=[\w-]{43}; path=\/; expires=[^;]+; samesite=strict; httponly$/);
      expect(cookie).not.to.include(KEY);
    });
  }

  it('opens the private page with the cookie the exchange set', async () => {
    const res = await server.fetch(`/abc?api_key=${KEY}`, { redirect: 'manual' });
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    expect((await server.fetch('/abc', { headers: { cookie } })).status).to.equal(200);
    const forged = `${cookie.split('=')[0]}=forged`;
    expect((await server.fetch('/abc', { headers: { cookie: forged } })).status).to.equal(403);
  });

  it('answers a wrong key on a page with a 403 page that asks again, and no cookie', async () => {
    const res = await server.fetch('/abc?api_key=wrong', { redirect: 'manual' });
    expect(res.status).to.equal(403);
    expect(res.headers.get('set-cookie')).to.equal(null);
    const page = await res.text();
    expect(page).to.include(INVALID_KEY);
    expect(page).to.include('<form method="get"><label>API key <input type="password" name="api_key"');
  });

  it('lets the cookie read but never write: saves and broadcasts still need the key', async () => {
    const res = await server.fetch(`/abc?api_key=${KEY}`, { redirect: 'manual' });
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    const save = await server.postForm('/api/abc/save', { html: 'changed' }, { cookie });
    expect([save.status, await save.json()]).to.deep.equal([403, { error: KEY_NEEDED }]);
    const live = await server.fetch('/api/abc/live', { method: 'POST', headers: { cookie }, body: '{"html":"x"}' });
    expect(live.status).to.equal(403);
    expect((await server.store.get('abc'))?.rev).to.equal(1);
  });

  it('lands behind a path-prefix proxy: the redirect is relative and the cookie opens the page', async () => {
    const proxy = await startPrefixProxy(server.url, '/pre');
    try {
      const res = await fetch(`${proxy.url}/pre/abc/1/edit?api_key=${KEY}`, { redirect: 'manual' });
      const target = new URL(res.headers.get('location')!, res.url);
      expect(target.href).to.equal(`${proxy.url}/pre/abc/1/edit`);
      const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
      expect((await fetch(target, { headers: { cookie } })).status).to.equal(200);
    } finally {
      proxy.close();
    }
  });

  it('sets the cookie from POST /api/session with the key, for the editor\'s key dialog', async () => {
    const res = await server.fetch('/api/session', { method: 'POST', headers: { Authorization: `token ${KEY}` } });
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ session: true });
    expect(res.headers.get('set-cookie')).to.match(/samesite=strict; httponly$/);
  });

  const refusals: [string, Record<string, string>, string][] = [
    ['no key', {}, KEY_NEEDED],
    ['a wrong key', { Authorization: 'token nope' }, INVALID_KEY],
  ];
  for (const [name, headers, error] of refusals) {
    it(`refuses POST /api/session with ${name}, setting no cookie`, async () => {
      const res = await server.fetch('/api/session', { method: 'POST', headers });
      expect(res.status).to.equal(403);
      expect(res.headers.get('set-cookie')).to.equal(null);
      expect(await res.json()).to.deep.equal({ error });
    });
  }
});

/** Every /api route, as method and path, for bin abc at revision 1. */
const API_ROUTES: [string, string][] = [
  ['GET', '/api'],
  ['GET', '/api/abc'],
  ['HEAD', '/api/abc'],
  ['GET', '/api/abc/1'],
  ['GET', '/api/abc/latest'],
  ['POST', '/api/save'],
  ['POST', '/api/abc/save'],
  ['DELETE', '/api/abc'],
  ['DELETE', '/api/abc/1'],
  ['POST', '/api/abc/live'],
  ['POST', '/api/abc/console'],
  ['POST', '/api/compile'],
  ['GET', '/api/compile'],
  ['POST', '/api/session'],
  ['GET', '/api/no/such/route'],
];

describe('a wrong key on the API', () => {
  const modes: [string, Record<string, unknown>][] = [
    ['reads open, key set', { ownership: { api_key: KEY } }],
    ['everything open', OPEN],
    ['private', PRIVATE],
  ];
  for (const [mode, config] of modes) {
    describe(mode, () => {
      let server: TestBinServer;
      before(async () => {
        server = await startBinServer(config);
        await server.store.append('abc', () => ({ html: '<p>x</p>', javascript: '', css: '', settings: {} }));
      });
      after(() => server.close());

      for (const [method, path] of API_ROUTES) {
        for (const [where, init] of [
          ['header', { headers: { Authorization: 'token nope' } }],
          ['query', {}],
        ] as const) {
          it(`is a 403 for ${method} ${path} (key in the ${where})`, async () => {
            const url = where === 'query' ? `${path}?api_key=nope` : path;
            const res = await server.fetch(url, { method, body: method === 'POST' ? '{}' : undefined, ...init });
            expect(res.status).to.equal(403);
            if (method !== 'HEAD') expect(await res.json()).to.deep.equal({ error: INVALID_KEY });
            expect((await server.store.list()).map((b) => b.revisions.length)).to.deep.equal([1]);
          });
        }
      }
    });
  }
});

describe('the console relay (hole 9)', () => {
  it('refuses anonymous records when reads are closed and no key is set', async () => {
    const server = await startBinServer({ api: { allowAnonymousRead: false } });
    try {
      await server.store.append('abc', () => ({ html: '<p>x</p>', javascript: '', css: '', settings: {} }));
      const res = await server.fetch('/api/abc/console', { method: 'POST', body: '{"records":[]}' });
      expect([res.status, await res.json()]).to.deep.equal([403, { error: KEY_NEEDED }]);
    } finally {
      await server.close();
    }
  });

  it('takes anonymous records when reads are open', async () => {
    const server = await startBinServer({ ownership: { api_key: KEY } });
    try {
      await server.store.append('abc', () => ({ html: '<p>x</p>', javascript: '', css: '', settings: {} }));
      const res = await server.fetch('/api/abc/console', { method: 'POST', body: '{"records":[]}' });
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ connections: 0 });
    } finally {
      await server.close();
    }
  });
});

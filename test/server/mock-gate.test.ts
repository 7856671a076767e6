import { expect } from 'chai';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jointHandler } from '../../src/server/joint.js';
import { mockGate, tokenRoute } from '../../src/server/mock-gate.js';
import { createMockTokens, MOCK_TOKEN_HOURS } from '../../src/server/mock-token.js';

// The gate of `serve --private-mocks` (src/server/mock-gate.ts) in the joint handler, with stub apps that
// say what reached them, and the tokens (src/server/mock-token.ts) with a clock of the test's choosing.

const HOUR = 60 * 60 * 1000;
const MESSAGE = 'these mocks are private: send the key';
const REFUSED = { success: false, message: MESSAGE };

describe('private mocks tokens', () => {
  const tokens = createMockTokens(Buffer.alloc(32, 7));
  const now = Date.UTC(2026, 10, 27, 9, 30);

  it('takes a token for the claim it was made for, until its expiry, rounded up to the hour', () => {
    const token = tokens.mint('abc/1', now);
    const expiry = Number(token.split('.')[0]) * 1000;
    expect(expiry).to.equal(Date.UTC(2026, 10, 27, 9 + MOCK_TOKEN_HOURS + 1));
    expect(tokens.valid(token, 'abc/1', now)).to.equal(true);
    expect(tokens.valid(token, 'abc/1', expiry - 1)).to.equal(true);
    expect(tokens.valid(token, 'abc/1', expiry)).to.equal(false);
  });

  it('makes one token per claim for a whole hour, so a page can be kept rendered', () => {
    expect(tokens.mint('abc/1', now)).to.equal(tokens.mint('abc/1', now + 29 * 60 * 1000));
    expect(tokens.mint('abc/1', now)).not.to.equal(tokens.mint('abc/1', now + HOUR));
  });

  const refused: [string, (token: string) => unknown, unknown][] = [
    ['another claim', (t) => t, 'abc/2'],
    ['another bin', (t) => t, 'abd/1'],
    ['no claim', (t) => t, undefined],
    ['a repeated claim header', (t) => t, ['abc/1', 'abc/1']],
    ['a later expiry with the old HMAC', (t) => `${Number(t.split('.')[0]) + 3600}.${t.split('.')[1]}`, 'abc/1'],
    ['a changed last character', (t) => t.slice(0, -1) + (t.endsWith('A') ? 'B' : 'A'), 'abc/1'],
    ['another secret’s token', () => createMockTokens(Buffer.alloc(32, 8)).mint('abc/1', now), 'abc/1'],
    ['a token with spaces', (t) => ` ${t}`, 'abc/1'],
    ['two tokens in one header', (t) => `${t}, ${t}`, 'abc/1'],
    ['a list', (t) => [t], 'abc/1'],
    ['an empty text', () => '', 'abc/1'],
  ];
  for (const [label, forge, claim] of refused) {
    it(`refuses ${label}`, () => {
      expect(tokens.valid(forge(tokens.mint('abc/1', now)), claim, now)).to.equal(false);
    });
  }

  it('refuses a token made before a restart (a new secret)', () => {
    const token = createMockTokens().mint('abc/1');
    expect(createMockTokens().valid(token, 'abc/1')).to.equal(false);
  });
});

type Seen = { app: string; method: string; url: string; headers: IncomingMessage['headers']; raw: string[] };

describe('the joint server’s private mocks gate', () => {
  const KEY = 'the-right-key-0123456789';
  const seen: Seen[] = [];
  const stub = (app: string) => (req: IncomingMessage, res: ServerResponse) => {
    seen.push({ app, method: req.method!, url: req.url!, headers: { ...req.headers }, raw: [...req.rawHeaders] });
    res.end(app);
  };
  const tokens = createMockTokens();
  // The owner's check as the bins make it (bins/auth/owner-request.ts) is tested with the real server; here, one header.
  const owner = (req: IncomingMessage) => req.headers.authorization === `token ${KEY}`;
  const servers = [true, false].map((preflights) =>
    createServer(
      jointHandler({
        bins: stub('bins'),
        mocks: stub('mocks'),
        version: '9.9.9',
        privateMocks: { gate: mockGate({ owner, tokens, preflights, message: MESSAGE }), tokenRoute: tokenRoute(tokens) },
      }),
    ),
  );
  let base: string;
  let noCors: string;
  before(async () => {
    const urls = await Promise.all(
      servers.map(async (server) => {
        server.listen(0, '127.0.0.1');
        await once(server, 'listening');
        return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      }),
    );
    [base, noCors] = urls as [string, string];
  });
  after(() => servers.forEach((server) => server.close()));
  beforeEach(() => {
    seen.length = 0;
  });

  const gated = ['/endpoint/users', '/endpoint/', '/mocks/', '/mocks/static/', '/mocks/api/endpoints', '/mocks/endpoint/users', '/mocks/api/events'];
  for (const path of gated) {
    it(`refuses ${path} without the key: 401 in the mock server's shape, and nothing reaches the mocks`, async () => {
      const res = await fetch(`${base}${path}`, { headers: { Authorization: 'token wrong' } });
      expect(res.status).to.equal(401);
      expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(await res.json()).to.deep.equal(REFUSED);
      expect(seen).to.deep.equal([]);
    });
  }

  it('lets the owner through to every path of the mocks', async () => {
    for (const path of gated) {
      const res = await fetch(`${base}${path}`, { headers: { Authorization: `token ${KEY}` } });
      expect(await res.text(), path).to.equal('mocks');
    }
  });

  it('leaves the bins’ paths, /mocks (a redirect) and what only looks like the mocks’ to the bins, ungated', async () => {
    for (const path of ['/', '/api/save', '/Endpoint/users', '/ENDPOINT/users', '/endpoint', '/mocksfoo', '/MOCKS/api/endpoints', '//endpoint/users']) {
      const res = await fetch(`${base}${path}`, { redirect: 'manual' });
      expect(await res.text(), path).to.equal('bins');
    }
    const res = await fetch(`${base}/mocks`, { redirect: 'manual' });
    expect(res.status).to.equal(302);
    expect(seen.map((s) => s.app)).to.deep.equal(Array(8).fill('bins'));
  });

  it('takes an unexpired token for its own claim on /endpoint/…, and takes the token out of the request', async () => {
    const res = await fetch(`${base}/endpoint/users?x=1`, {
      headers: { 'X-Snippetkit-Bin': 'abc/1', 'X-Snippetkit-Mock-Token': tokens.mint('abc/1') },
    });
    expect(await res.text()).to.equal('mocks');
    expect(seen[0]!.headers).not.to.have.property('x-snippetkit-mock-token');
    expect(seen[0]!.raw.map((h) => h.toLowerCase())).not.to.include('x-snippetkit-mock-token');
    expect(seen[0]!.headers['x-snippetkit-bin']).to.equal('abc/1');
  });

  it('refuses a token for the management API, the page and /mocks/endpoint/…: a token is for /endpoint/ alone', async () => {
    const headers = { 'X-Snippetkit-Bin': 'abc/1', 'X-Snippetkit-Mock-Token': tokens.mint('abc/1') };
    for (const path of ['/mocks/api/endpoints', '/mocks/static/', '/mocks/endpoint/users', '/mocks/api/endpoint/users/log']) {
      const res = await fetch(`${base}${path}`, { headers });
      expect(res.status, path).to.equal(401);
    }
    expect(seen).to.deep.equal([]);
  });

  const badTokens: [string, () => Record<string, string>][] = [
    ['another claim’s token', () => ({ 'X-Snippetkit-Bin': 'abc/2', 'X-Snippetkit-Mock-Token': tokens.mint('abc/1') })],
    ['an expired token', () => ({ 'X-Snippetkit-Bin': 'abc/1', 'X-Snippetkit-Mock-Token': tokens.mint('abc/1', Date.now() - 14 * HOUR) })],
    ['a token without its claim', () => ({ 'X-Snippetkit-Mock-Token': tokens.mint('abc/1') })],
    ['a forged token', () => ({ 'X-Snippetkit-Bin': 'abc/1', 'X-Snippetkit-Mock-Token': `${Math.floor(Date.now() / 1000) + 3600}.${'A'.repeat(43)}` })],
  ];
  for (const [label, headers] of badTokens) {
    it(`refuses ${label} on /endpoint/…`, async () => {
      const res = await fetch(`${base}/endpoint/users`, { headers: headers() });
      expect(res.status).to.equal(401);
      expect(await res.json()).to.deep.equal(REFUSED);
      expect(seen).to.deep.equal([]);
    });
  }

  it('refuses the claim header twice, though one of them is the token’s claim', async () => {
    const res = await fetch(`${base}/endpoint/users`, {
      headers: [['X-Snippetkit-Bin', 'abc/1'], ['X-Snippetkit-Bin', 'abc/1'], ['X-Snippetkit-Mock-Token', tokens.mint('abc/1')]],
    });
    expect(res.status).to.equal(401);
  });

  it('answers HEAD’s refusal with no body', async () => {
    const res = await fetch(`${base}/endpoint/users`, { method: 'HEAD' });
    expect(res.status).to.equal(401);
    expect(await res.text()).to.equal('');
    expect(seen).to.deep.equal([]);
  });

  it('passes CORS preflights (no credentials) to the mock server, which answers them, when it answers CORS', async () => {
    const preflight = { 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-snippetkit-bin,x-snippetkit-mock-token', Origin: 'null' };
    const res = await fetch(`${base}/endpoint/users`, { method: 'OPTIONS', headers: preflight });
    expect(await res.text()).to.equal('mocks');
    expect(seen.map((s) => s.method)).to.deep.equal(['OPTIONS']);
  });

  it('gates an OPTIONS that is no preflight, and every OPTIONS under --no-cors (it could reach an endpoint)', async () => {
    expect((await fetch(`${base}/endpoint/users`, { method: 'OPTIONS' })).status).to.equal(401);
    const preflight = { 'Access-Control-Request-Method': 'GET', Origin: 'null' };
    expect((await fetch(`${noCors}/endpoint/users`, { method: 'OPTIONS', headers: preflight })).status).to.equal(401);
    expect((await fetch(`${noCors}/mocks/api/endpoints`, { method: 'OPTIONS', headers: preflight })).status).to.equal(401);
    expect(seen).to.deep.equal([]);
  });

  it('lets a refused bin page read why (CORS on), and says nothing of CORS under --no-cors', async () => {
    expect((await fetch(`${base}/endpoint/users`)).headers.get('access-control-allow-origin')).to.equal('*');
    expect((await fetch(`${noCors}/endpoint/users`)).headers.get('access-control-allow-origin')).to.equal(null);
  });

  it('gives the owner a token for a claim at /mocks/token, which /endpoint/ then takes for that claim', async () => {
    const res = await fetch(`${base}/mocks/token?claim=abc/3`, { headers: { Authorization: `token ${KEY}` } });
    expect(res.headers.get('cache-control')).to.equal('no-store');
    const { success, claim, token } = (await res.json()) as { success: boolean; claim: string; token: string };
    expect([success, claim]).to.deep.equal([true, 'abc/3']);
    const called = await fetch(`${base}/endpoint/users`, { headers: { 'X-Snippetkit-Bin': 'abc/3', 'X-Snippetkit-Mock-Token': token } });
    expect(await called.text()).to.equal('mocks');
    expect(seen.map((s) => s.url)).to.deep.equal(['/endpoint/users']);
  });

  it('gives the owner a token for a new bin (claim new), which /endpoint/ takes for that claim alone', async () => {
    const res = await fetch(`${base}/mocks/token?claim=new`, { headers: { Authorization: `token ${KEY}` } });
    const { claim, token } = (await res.json()) as { claim: string; token: string };
    expect(claim).to.equal('new');
    const called = await fetch(`${base}/endpoint/users`, { headers: { 'X-Snippetkit-Bin': 'new', 'X-Snippetkit-Mock-Token': token } });
    expect(await called.text()).to.equal('mocks');
    const other = await fetch(`${base}/endpoint/users`, { headers: { 'X-Snippetkit-Bin': 'abc/1', 'X-Snippetkit-Mock-Token': token } });
    expect(other.status).to.equal(401);
    expect(seen.map((s) => s.url)).to.deep.equal(['/endpoint/users']);
  });

  it('gives no token without the key (a token never buys another), for a bad claim, or to a POST', async () => {
    const headers = { 'X-Snippetkit-Bin': 'abc/1', 'X-Snippetkit-Mock-Token': tokens.mint('abc/1') };
    expect((await fetch(`${base}/mocks/token?claim=abc/1`, { headers })).status).to.equal(401);
    const owner = { Authorization: `token ${KEY}` };
    const bad = await fetch(`${base}/mocks/token?claim=../x`, { headers: owner });
    expect([bad.status, await bad.json()]).to.deep.equal([
      400,
      { success: false, message: 'claim must be a bin and revision, as in ?claim=fumugi/3, or new for a bin not saved yet', field: 'claim' },
    ]);
    expect((await fetch(`${base}/mocks/token`, { headers: owner })).status).to.equal(400);
    expect((await fetch(`${base}/mocks/token?claim=abc/1`, { method: 'POST', headers: owner })).status).to.equal(405);
    expect(seen).to.deep.equal([]);
  });

  it('says where tokens are at /api/whoami', async () => {
    expect(await (await fetch(`${base}/api/whoami`)).json()).to.include({ mockTokens: '/mocks/token' });
  });

  it('is not there without the flag: the same handler without a gate lets everything through', async () => {
    const open = createServer(jointHandler({ bins: stub('bins'), mocks: stub('mocks'), version: '9.9.9' }));
    open.listen(0, '127.0.0.1');
    await once(open, 'listening');
    try {
      const url = `http://127.0.0.1:${(open.address() as AddressInfo).port}`;
      expect(await (await fetch(`${url}/endpoint/users`)).text()).to.equal('mocks');
      expect(await (await fetch(`${url}/mocks/api/endpoints`)).text()).to.equal('mocks');
      expect(await (await fetch(`${url}/mocks/token?claim=abc/1`)).text()).to.equal('mocks');
      expect(await (await fetch(`${url}/api/whoami`)).json()).not.to.have.property('mockTokens');
    } finally {
      open.close();
    }
  });
});

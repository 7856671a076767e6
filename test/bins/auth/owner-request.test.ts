import { expect } from 'chai';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sessionCookie } from '../../../src/bins/auth/auth.js';
import { ownerCheck } from '../../../src/bins/auth/owner-request.js';
import { binConfigWith } from '../../../src/bins/config/defaults.js';

// The owner's key or session read off a raw request (src/bins/auth/owner-request.ts), as the joint
// server's private mocks gate reads it: what counts, and what of it is taken out before the mocks see it.

const KEY = 'owner-key-0123456789';
const config = binConfigWith({ ownership: { api_key: KEY } });
const session = sessionCookie(config)!;

type Seen = { owner: boolean; url: string; authorization?: string; raw: string[] };

describe('the bins’ owner on a raw request', () => {
  const check = ownerCheck(config);
  let server: Server;
  let base: string;
  before(async () => {
    server = createServer((req, res) => {
      const owner = check(req);
      const seen: Seen = { owner, url: req.url!, authorization: req.headers.authorization, raw: req.rawHeaders.map((h) => h.toLowerCase()) };
      res.end(JSON.stringify(seen));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());
  const ask = async (path: string, headers: Record<string, string> = {}) => (await (await fetch(`${base}${path}`, { headers })).json()) as Seen;

  it('takes `Authorization: token KEY` (and the bare key, as the bins do) and takes it out of headers and rawHeaders', async () => {
    for (const value of [`token ${KEY}`, `Token  ${KEY}`, KEY]) {
      const seen = await ask('/endpoint/x', { Authorization: value });
      expect(seen.owner, value).to.equal(true);
      expect(seen.authorization).to.equal(undefined);
      expect(seen.raw).not.to.include('authorization');
    }
  });

  it('leaves any other Authorization alone and shows nothing: it may be the mocked API’s own', async () => {
    for (const value of [`Bearer ${KEY}`, 'token wrong-key', `token ${KEY}x`]) {
      const seen = await ask('/endpoint/x', { Authorization: value });
      expect([seen.owner, seen.authorization], value).to.deep.equal([false, value]);
    }
  });

  it('takes ?api_key=KEY and leaves the rest of the query as written', async () => {
    expect(await ask(`/endpoint/x?a=1%2C2&api_key=${KEY}&b&c=+`)).to.include({ owner: true, url: '/endpoint/x?a=1%2C2&b&c=+' });
    expect(await ask(`/endpoint/x?%61pi_key=${KEY}`)).to.include({ owner: true, url: '/endpoint/x' });
    expect(await ask(`/endpoint/x?api_key=wrong&z=1`)).to.include({ owner: false, url: '/endpoint/x?api_key=wrong&z=1' });
  });

  it('takes the session cookie among others, and nothing like it', async () => {
    const cookie = `${session.name}=${session.value}`;
    expect((await ask('/mocks/api/endpoints', { Cookie: `a=1; ${cookie}; b=2` })).owner).to.equal(true);
    for (const forged of [`${session.name}=${session.value}x`, `${session.name}x=${session.value}`, `snippetkit_other=${session.value}`]) {
      expect((await ask('/mocks/api/endpoints', { Cookie: forged })).owner, forged).to.equal(false);
    }
  });

  it('shows nothing where no key is configured', async () => {
    const keyless = ownerCheck(binConfigWith({}));
    const server2 = createServer((req, res) => res.end(String(keyless(req))));
    server2.listen(0, '127.0.0.1');
    await once(server2, 'listening');
    try {
      const res = await fetch(`http://127.0.0.1:${(server2.address() as AddressInfo).port}/endpoint/x?api_key=`, { headers: { Authorization: 'token ' } });
      expect(await res.text()).to.equal('false');
    } finally {
      server2.close();
    }
  });
});

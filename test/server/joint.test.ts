import { expect } from 'chai';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jointHandler } from '../../src/server/joint.js';

// The joint server's dispatch alone (src/server/joint.ts), with two stub apps that say who answered
// and what they were given: every row of the route table, and what reaches the mock app.

type Seen = { app: string; url: string; cookie?: string; rawCookie: string[] };

function stub(app: string, seen: Seen[]) {
  return (req: IncomingMessage, res: import('node:http').ServerResponse) => {
    const rawCookie = req.rawHeaders.filter((_, i) => i % 2 === 1 && req.rawHeaders[i - 1]!.toLowerCase() === 'cookie');
    seen.push({ app, url: req.url ?? '', cookie: req.headers.cookie, rawCookie });
    res.end(app);
  };
}

describe('the joint server’s dispatch by path', () => {
  const seen: Seen[] = [];
  const server = createServer(jointHandler({ bins: stub('bins', seen), mocks: stub('mocks', seen), version: '9.9.9' }));
  let base: string;
  before(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());
  beforeEach(() => {
    seen.length = 0;
  });

  const table: [string, string, string][] = [
    ['/endpoint/users/1?x=1', 'mocks', '/endpoint/users/1?x=1'],
    ['/mocks/', 'mocks', '/'],
    ['/mocks/static/page.js', 'mocks', '/static/page.js'],
    ['/mocks/api/endpoints?q=1', 'mocks', '/api/endpoints?q=1'],
    ['/mocks/endpoint/users', 'mocks', '/endpoint/users'],
    ['/', 'bins', '/'],
    ['/api/save', 'bins', '/api/save'],
    ['/api/whoamix', 'bins', '/api/whoamix'],
    ['/mocksfoo', 'bins', '/mocksfoo'],
    ['/MOCKS/', 'bins', '/MOCKS/'],
    ['/endpoint', 'bins', '/endpoint'],
    ['/rovoqe/1/edit', 'bins', '/rovoqe/1/edit'],
  ];
  for (const [path, app, url] of table) {
    it(`sends ${path} to the ${app} as ${url}`, async () => {
      const res = await fetch(`${base}${path}`, { redirect: 'manual' });
      expect(await res.text()).to.equal(app);
      expect(seen).to.deep.equal([{ app, url, cookie: undefined, rawCookie: [] }]);
    });
  }

  it('redirects /mocks and /mocks?… to the page, with the slash its relative URLs need', async () => {
    for (const path of ['/mocks', '/mocks?a=1']) {
      const res = await fetch(`${base}${path}`, { redirect: 'manual' });
      expect([res.status, res.headers.get('location')]).to.deep.equal([302, '/mocks/static/']);
    }
    expect(seen).to.deep.equal([]);
  });

  it('says what it is at GET /api/whoami, and leaves other methods there to the bins', async () => {
    const res = await fetch(`${base}/api/whoami`);
    expect(await res.json()).to.deep.equal({
      server: 'snippetkit serve',
      version: '9.9.9',
      bins: '/',
      mocks: '/mocks/',
      endpoints: '/endpoint/',
    });
    await fetch(`${base}/api/whoami`, { method: 'POST' });
    expect(seen.map((s) => s.app)).to.deep.equal(['bins']);
  });

  it('hands each request on with its cookies as they came: the mock handler takes the bins’ out itself', async () => {
    await fetch(`${base}/endpoint/x`, { headers: { Cookie: 'a=1; snippetkit_abc=secret' } });
    await fetch(`${base}/api/x`, { headers: { Cookie: 'snippetkit_abc=secret' } });
    expect(seen).to.deep.equal([
      { app: 'mocks', url: '/endpoint/x', cookie: 'a=1; snippetkit_abc=secret', rawCookie: ['a=1; snippetkit_abc=secret'] },
      { app: 'bins', url: '/api/x', cookie: 'snippetkit_abc=secret', rawCookie: ['snippetkit_abc=secret'] },
    ]);
  });
});

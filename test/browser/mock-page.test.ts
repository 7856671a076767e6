import { expect } from 'chai';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openPage, type TestPage } from '../browser/browser.js';
import { addEndpoint, startMockServer, type TestMockServer } from './server.js';

const PREFIX = '/tools/mocks';

/** A reverse proxy that mounts the mock server under PREFIX, as nginx with a location block would. */
async function startPrefixProxy(target: string): Promise<{ url: string; server: Server }> {
  const { hostname, port } = new URL(target);
  const server = createServer((req, res) => {
    if (!req.url?.startsWith(`${PREFIX}/`)) {
      res.writeHead(404).end();
      return;
    }
    const upstream = request(
      { hostname, port, method: req.method, path: req.url.slice(PREFIX.length), headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the endpoint list page in Chromium', function () {
  this.timeout(30_000);
  let server: TestMockServer;
  let t: TestPage;
  before(async () => {
    server = await startMockServer();
    await addEndpoint(server, { name: 'users', data: [1], statusCode: 201, delay: 5 });
    await addEndpoint(server, { name: 'orders', data: [] });
  });
  after(() => server.close());
  beforeEach(async () => {
    t = await openPage();
  });
  afterEach(() => t.context.close());

  it('lists every endpoint with its status, delay and a link to it, from /', async () => {
    await t.page.goto(`${server.url}/`);
    await t.page.locator('#endpoints tbody tr').nth(1).waitFor();
    const rows = await t.page.locator('#endpoints tbody tr').allInnerTexts();
    expect(rows[0]).to.match(/^orders\t200\t0\t/);
    expect(rows[1]).to.match(/^users\t201\t5\t/);
    expect(await t.page.locator('a', { hasText: 'users' }).getAttribute('href')).to.equal(`${server.url}/endpoint/users`);
    expect(t.errors).to.deep.equal([]);
  });

  it('works behind a reverse proxy that mounts it under a path prefix', async () => {
    const proxy = await startPrefixProxy(server.url);
    try {
      await t.page.goto(`${proxy.url}${PREFIX}/`);
      expect(t.page.url()).to.equal(`${proxy.url}${PREFIX}/static/`);
      await t.page.locator('#endpoints tbody tr').nth(1).waitFor();
      const link = await t.page.locator('a', { hasText: 'users' }).getAttribute('href');
      expect(link).to.equal(`${proxy.url}${PREFIX}/endpoint/users`);
      const served = await t.page.evaluate(async (url) => (await fetch(url)).status, link!);
      expect(served).to.equal(201);
      expect(t.errors).to.deep.equal([]);
    } finally {
      proxy.server.closeAllConnections();
      proxy.server.close();
    }
  });
});

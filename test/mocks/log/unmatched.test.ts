import { expect } from 'chai';
import { nearMisses } from '../../../src/mocks/verify/near-miss.js';
import { openSse } from '../../helpers/sse.js';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';

type Unmatched = {
  count: number;
  requests: { method: string; url: string; status: number; body: string; nearMisses: { name: string; differences: string[] }[] }[];
};

describe('the unmatched log: requests no endpoint answered, with their near misses', () => {
  let server: TestMockServer;
  afterEach(() => server?.close());

  const unmatched = async (): Promise<Unmatched> => (await server.fetch('/api/unmatched')).json() as Promise<Unmatched>;

  for (const hotPath of [true, false]) {
    it(`logs 404s and 405s with their bodies, newest first, and answers them as before (${hotPath ? 'hot path' : 'Koa path'})`, async () => {
      server = await startMockServer({ hotPath });
      await addEndpoint(server, { name: 'users', path: 'users/:id', methods: ['GET'], data: { id: 1 } });
      const missing = await server.fetch('/endpoint/user/7?full=1');
      expect(missing.status).to.equal(404);
      expect(await missing.json()).to.deep.equal({ success: false, message: "no endpoint at '/endpoint/user/7'" });
      const wrong = await server.fetch('/endpoint/users/7', { method: 'POST', body: '{"name":"Ada"}', headers: { 'content-type': 'application/json' } });
      expect(wrong.status).to.equal(405);
      expect(wrong.headers.get('allow')).to.equal('GET, HEAD');
      expect((await server.fetch('/endpoint/users/7')).status).to.equal(200);

      const log = await unmatched();
      expect(log.count).to.equal(2);
      expect(log.requests.map(({ method, url, status, body }) => ({ method, url, status, body }))).to.deep.equal([
        { method: 'POST', url: '/endpoint/users/7', status: 405, body: '{"name":"Ada"}' },
        { method: 'GET', url: '/endpoint/user/7?full=1', status: 404, body: '' },
      ]);
      expect(log.requests[0]!.nearMisses).to.deep.equal([
        { name: 'users', path: 'users/:id', methods: ['GET'], differences: ['it takes GET, not POST'] },
      ]);
      expect(log.requests[1]!.nearMisses).to.deep.equal([
        { name: 'users', path: 'users/:id', methods: ['GET'], differences: ["'user' where it has 'users'"] },
      ]);
    });
  }

  it('empties on DELETE and keeps counting', async () => {
    server = await startMockServer();
    await server.fetch('/endpoint/nope');
    expect((await server.fetch('/api/unmatched', { method: 'DELETE' })).status).to.equal(200);
    expect(await unmatched()).to.deep.equal({ success: true, count: 1, requests: [] });
  });

  it('keeps the newest --log-size requests', async () => {
    server = await startMockServer({ store: { logSize: 3 } });
    for (let i = 1; i <= 5; i++) await server.fetch(`/endpoint/nope/${i}`);
    const log = await unmatched();
    expect(log.count).to.equal(5);
    expect(log.requests.map((request) => request.url)).to.deep.equal(['/endpoint/nope/5', '/endpoint/nope/4', '/endpoint/nope/3']);
  });

  it('is charged to the byte budget every log shares, which evicts it like any', async () => {
    server = await startMockServer({ store: { maxLogBytes: 256 * 1024 } });
    const body = 'x'.repeat(60_000);
    for (let i = 0; i < 20; i++) await server.fetch('/endpoint/nope', { method: 'POST', body });
    expect(server.store.memory.logs.used).to.be.at.most(256 * 1024);
    const log = await unmatched();
    expect(log.requests.length).to.be.within(1, 4);
  });

  it('says what changed in the server-wide stream: revision, hits, unmatched count', async () => {
    server = await startMockServer();
    await addEndpoint(server, { name: 'hook', data: {} });
    const stream = await openSse(`${server.url}/api/events`);
    try {
      const first = JSON.parse((await stream.next('summary')).data);
      expect(first.endpoints).to.deep.equal([]);
      expect(first.unmatched).to.equal(0);
      await server.fetch('/endpoint/hook');
      await server.fetch('/endpoint/hook');
      const hits = JSON.parse((await stream.next('summary')).data);
      expect(hits.endpoints).to.have.length(1);
      expect(hits.endpoints[0]).to.include({ name: 'hook', hits: 2 });
      expect(hits.revision).to.equal(first.revision);
      await server.fetch('/endpoint/nothing');
      expect(JSON.parse((await stream.next('summary')).data)).to.include({ unmatched: 1 });
      await addEndpoint(server, { name: 'other', data: {} });
      const added = JSON.parse((await stream.next('summary')).data);
      expect(added.revision).to.be.greaterThan(first.revision);
    } finally {
      stream.close();
    }
  });
});

describe('near misses', () => {
  const candidates = [
    { name: 'users', pattern: 'users/:id', methods: undefined },
    { name: 'orders', pattern: 'shop/orders', methods: ['POST'] },
    { name: 'files', pattern: 'files/*', methods: undefined },
  ];
  const names = (method: string, path: string) => nearMisses(method, path, candidates).map((miss) => miss.name);

  it('finds a typo, a missing segment, an extra one and a method', () => {
    expect(names('GET', 'usres/1')).to.deep.equal(['users']);
    expect(names('GET', 'users')).to.deep.equal(['users']);
    expect(nearMisses('GET', 'users/1/posts', candidates)[0]!.differences).to.deep.equal(['1 segment more than it has']);
    expect(nearMisses('GET', 'shop/orders', candidates)[0]!.differences).to.deep.equal(['it takes POST, not GET']);
  });

  it('leaves out what shares nothing with the path', () => {
    expect(names('GET', 'weather/today')).to.deep.equal([]);
    expect(names('GET', '')).to.deep.equal([]);
  });

  it('takes HEAD where GET is allowed, and decodes segments', () => {
    const head = nearMisses('HEAD', 'shop/orderz', [{ name: 'o', pattern: 'shop/orders', methods: ['GET'] }]);
    expect(head[0]!.differences).to.deep.equal(["'orderz' where it has 'orders'"]);
    expect(names('GET', 'user%73/1/x')).to.deep.equal(['users']);
  });

  it('keeps three, closest first', () => {
    const many = ['a', 'b', 'c', 'd'].map((name) => ({ name, pattern: `api/${name}`, methods: undefined }));
    expect(nearMisses('GET', 'api/zz', many).map((miss) => miss.name)).to.deep.equal(['a', 'b', 'c']);
  });
});

describe('GET /api/unmatched under load', () => {
  let server: TestMockServer;
  afterEach(() => server?.close());

  it('works out near misses within its time budget, saying null for the rest, and goes on at each call', async function () {
    this.timeout(60_000);
    server = await startMockServer({ store: { logSize: 200 } });
    const endpoints = Array.from({ length: 3000 }, (_, i) => ({ name: `e${i}`, path: `shop${i}/:id/items`, data: {} }));
    const imported = await server.fetch('/api/endpoints/import', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ endpoints }),
    });
    expect(imported.status).to.equal(200);
    for (let i = 0; i < 200; i++) await server.fetch(`/endpoint/shop${i}/1/itemz/${i}`);
    const ask = async () => ((await server.fetch('/api/unmatched')).json() as Promise<{ requests: { nearMisses: unknown[] | null }[] }>);
    // Each call works out at least one more, so 200 calls are enough however loaded the machine is.
    let missing = Infinity;
    for (let calls = 0; missing > 0 && calls < 200; calls++) {
      const { requests } = await ask();
      const left = requests.filter((request) => request.nearMisses === null).length;
      expect(left).to.be.below(missing);
      missing = left;
    }
    expect(missing).to.equal(0);
    const { requests } = await ask();
    expect(requests.every((request) => Array.isArray(request.nearMisses) && request.nearMisses.length > 0)).to.equal(true);
  });
});

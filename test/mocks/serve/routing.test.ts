import { expect } from 'chai';
import { join } from 'node:path';
import type { MockInput } from '../../../src/mocks/record/record.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { tempDir } from '../../helpers/temp.js';
import { startMockServer, type TestMockServer } from '../server.js';

/** An endpoint answering `data` (as JSON) on `path`. */
function mock(name: string, fields: Partial<MockInput> & { data?: unknown } = {}): MockInput {
  const { data = name, ...rest } = fields;
  return { name, statusCode: 200, delay: 0, json: JSON.stringify(data), ...rest };
}

describe('routing /endpoint/* by path', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer();
    await server.store.put(mock('any-user', { path: 'users/*' }));
    await server.store.put(mock('user', { path: 'users/:id', methods: ['GET', 'PUT'] }));
    await server.store.put(mock('me', { path: 'users/me' }));
    await server.store.put(mock('posts', { path: 'users/:id/posts/:post?', methods: ['GET'] }));
    await server.store.put(mock('users'));
    await server.store.put(mock('batch', { path: 'things:batchGet' }));
    await server.store.put(mock('part', { path: 'docs#part' }));
  });
  after(() => server.close());

  // [request, expected status, expected body (JSON) or message]
  const cases: [string, number, unknown][] = [
    ['GET /endpoint/users', 200, 'users'],
    ['GET /endpoint/users/me', 200, 'me'],
    ['GET /endpoint/users/42', 200, 'user'],
    ['PUT /endpoint/users/42', 200, 'user'],
    ['POST /endpoint/users/42', 200, 'any-user'],
    ['GET /endpoint/users/42/posts', 200, 'posts'],
    ['GET /endpoint/users/42/posts/7/', 200, 'posts'],
    ['GET /endpoint/users/42/posts/7/x', 200, 'any-user'],
    ['GET /endpoint/%75sers/%6De?q=1', 200, 'me'],
    ['GET /endpoint/Users/me', 404, "no endpoint at '/endpoint/Users/me'"],
    ['GET /endpoint/teams', 404, "no endpoint named 'teams'"],
    ['GET /endpoint/', 404, "no endpoint at '/endpoint/'"],
    ['GET /endpoint/things:batchGet', 200, 'batch'],
    ['GET /endpoint/things%3AbatchGet', 200, 'batch'],
    ['GET /endpoint/docs%23part', 200, 'part'],
    ['GET /endpoint/docs#part', 404, "no endpoint named 'docs'"],
    ['GET /endpoint/users/%zz/posts', 404, "no endpoint at '/endpoint/users/%zz/posts'"],
  ];
  for (const [request, status, expected] of cases) {
    it(`answers ${request} with ${status}`, async () => {
      const [method, path] = request.split(' ');
      const res = await server.fetch(path!, { method });
      expect(res.status).to.equal(status);
      const body = await res.json();
      expect(status === 200 ? body : body.message).to.deep.equal(expected);
    });
  }

  it('answers a method no route on the path takes with 405, Allow, CORS and a JSON message', async () => {
    await server.store.put(mock('only-get', { path: 'orders/:id', methods: ['GET'] }));
    await server.store.put(mock('only-post', { path: 'orders/new', methods: ['POST'] }));
    const res = await server.fetch('/endpoint/orders/new', { method: 'DELETE', headers: { origin: 'http://o.test' } });
    expect(res.status).to.equal(405);
    expect(res.headers.get('allow')).to.equal('GET, HEAD, POST');
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    const message = 'DELETE is not allowed here; allowed: GET, HEAD, POST';
    expect(await res.json()).to.deep.equal({ success: false, message });
  });

  it('serves an endpoint whose path is / at /endpoint/ itself, through Koa too, and 404s there again once it is gone', async () => {
    const koa = await startMockServer({ hotPath: false });
    try {
      for (const at of [server, koa]) {
        const put = await at.putJson('/api/endpoint/root', { path: '/', data: { root: true } });
        expect(put.status, await put.text()).to.be.oneOf([200, 201]);
        expect(await (await at.fetch('/endpoint/')).json()).to.deep.equal({ root: true });
        expect((await at.fetch('/api/endpoint/root', { method: 'DELETE' })).status).to.equal(200);
        const gone = await at.fetch('/endpoint/');
        expect([gone.status, (await gone.json()).message]).to.deep.equal([404, "no endpoint at '/endpoint/'"]);
      }
    } finally {
      await koa.close();
    }
  });

  it('does not count or log a 405', async () => {
    await server.fetch('/endpoint/orders/1', { method: 'PATCH' });
    expect(server.store.get('only-get')!.stats.hits).to.equal(0);
  });

  it('answers the same through Koa as through the hot path, for a parameter path and a 405', async () => {
    const koa = await startMockServer({ hotPath: false, file: undefined });
    try {
      await koa.store.put(mock('user', { path: 'users/:id', methods: ['GET'] }));
      const [hot, slow] = await Promise.all([
        rawRequest(server.url, 'GET /endpoint/users/42 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
        rawRequest(koa.url, 'GET /endpoint/users/42 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      ]);
      expect(slow.body).to.equal(hot.body);
      const refused = await koa.fetch('/endpoint/users/42', { method: 'POST' });
      expect([refused.status, refused.headers.get('allow')]).to.deep.equal([405, 'GET, HEAD']);
    } finally {
      await koa.close();
    }
  });
});

describe('route conflicts in the store', () => {
  let server: TestMockServer;
  beforeEach(async () => {
    server = await startMockServer();
    await server.store.put(mock('user', { path: 'users/:id', methods: ['GET', 'PUT'] }));
  });
  afterEach(() => server.close());

  it('refuses the same route shape with a method in common: 409 naming the other endpoint, field path', async () => {
    const err = await server.store.put(mock('other', { path: 'users/:uid', methods: ['PUT'] })).catch((e) => e);
    expect(err).to.include({
      status: 409,
      field: 'path',
      message: "path 'users/:uid' overlaps endpoint 'user': same route shape with a method in common",
    });
    expect(server.store.get('other')).to.equal(undefined);
    expect((await server.fetch('/endpoint/users/1', { method: 'PUT' })).status).to.equal(200);
  });

  it('takes the same shape with other methods', async () => {
    await server.store.put(mock('other', { path: 'users/:uid', methods: ['POST'] }));
    expect(await (await server.fetch('/endpoint/users/1', { method: 'POST' })).json()).to.equal('other');
  });

  it('takes an endpoint replacing itself, with a new path', async () => {
    await server.store.put(mock('user', { path: 'users/:id', methods: ['GET', 'PUT'], data: 2 }));
    await server.store.put(mock('user', { path: 'people/:id', data: 3 }));
    expect(await (await server.fetch('/endpoint/people/1')).json()).to.equal(3);
    expect((await server.fetch('/endpoint/users/1')).status).to.equal(404);
  });

  it('refuses all but one of concurrent writes of different names on one shape', async () => {
    const writes = Array.from({ length: 10 }, (_, i) => server.store.put(mock(`t${i}`, { path: 'teams/:id' })));
    const results = await Promise.allSettled(writes);
    expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.map((r) => r.reason.status)).to.deep.equal(Array(9).fill(409));
    expect(server.store.list().filter((e) => e.record.name.startsWith('t'))).to.have.length(1);
  });

  it('frees a route when its endpoint is deleted', async () => {
    await server.store.delete('user');
    expect((await server.fetch('/endpoint/users/1')).status).to.equal(404);
    await server.store.put(mock('other', { path: 'users/:uid' }));
    expect(await (await server.fetch('/endpoint/users/1')).json()).to.equal('other');
  });

  it('restores paths and methods from the data file', async () => {
    const temp = tempDir();
    const file = join(temp.dir, 'mocks.sqlite');
    try {
      const first = await startMockServer({ file });
      await first.store.put(mock('user', { path: 'users/:id', methods: ['GET'] }));
      await first.store.put(mock('maker', { path: 'users/:x', methods: ['POST'] }));
      await first.close();
      const second = await startMockServer({ file });
      try {
        expect(await (await second.fetch('/endpoint/users/1')).json()).to.equal('user');
        expect(await (await second.fetch('/endpoint/users/1', { method: 'POST' })).json()).to.equal('maker');
        const refused = await second.fetch('/endpoint/users/1', { method: 'PUT' });
        expect(refused.headers.get('allow')).to.equal('GET, HEAD, POST');
      } finally {
        await second.close();
      }
    } finally {
      temp.cleanup();
    }
  });
});

import { expect } from 'chai';
import { request } from 'node:http';
import { join } from 'node:path';
import { MockApiError, startMockServer, type MockServer, type RequestFilter, type Verification } from 'snippetkit';
import { tempDir } from '../helpers/temp.js';

// The package's main export as a test suite uses it: imported by the package's own name, so `exports`
// in package.json is what is tested, not a path into src/.
describe('startMockServer (the Node API)', () => {
  let mocks: MockServer;
  beforeEach(async () => {
    mocks = await startMockServer();
  });
  afterEach(() => mocks.close());

  it('serves what add() stubs, on a free port of 127.0.0.1, templates included', async () => {
    expect(mocks.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(mocks.port).to.be.above(0);
    const stored = await mocks.add({ name: 'user', path: 'users/:id', data: { id: '{{params.id}}' }, template: true });
    expect(stored).to.deep.include({ name: 'user', path: 'users/:id', statusCode: 200, delay: 0, template: true });
    const res = await fetch(mocks.endpointUrl('/users/7'));
    expect([res.status, await res.json()]).to.deep.equal([200, { id: '7' }]);
  });

  it('refuses what the HTTP API refuses, with its status, message and field', async () => {
    await mocks.add({ name: 'user', data: {} });
    const refusal = await mocks.add({ name: 'user', data: {} }).catch((err: unknown) => err);
    expect(refusal).to.be.instanceOf(MockApiError);
    expect(refusal).to.include({ status: 409, message: "an endpoint named 'user' already exists", field: 'name' });
    const bad = await mocks.add({ name: 'x', data: {}, statusCode: 99 }).catch((err: unknown) => err);
    expect(bad).to.include({ status: 400, field: 'statusCode' });
    expect(await mocks.list()).to.have.length(1);
  });

  it('gets, lists, replaces and removes endpoints', async () => {
    await mocks.add({ name: 'a', data: [1] });
    await mocks.put({ name: 'b', path: 'bees', data: 'x', statusCode: 201 });
    await mocks.put({ name: 'a', data: [2] });
    expect((await mocks.list()).map((m) => [m.name, m.path, m.statusCode])).to.deep.equal([
      ['a', 'a', 200],
      ['b', 'bees', 201],
    ]);
    const a = await mocks.get('a');
    expect(a).to.deep.include({ name: 'a', data: [2], hits: 0, lastCall: null, url: `${mocks.url}/endpoint/a` });
    expect(await mocks.get('nope')).to.equal(undefined);
    expect(await mocks.remove('a')).to.equal(true);
    expect(await mocks.remove('a')).to.equal(false);
    expect((await fetch(mocks.endpointUrl('a'))).status).to.equal(404);
  });

  it('gives the requests an endpoint received, oldest first, by method, and clears them', async () => {
    await mocks.add({ name: 'orders', data: { ok: true } });
    await fetch(mocks.endpointUrl('orders?page=1'));
    await fetch(mocks.endpointUrl('orders'), { method: 'POST', body: '{"item":3}', headers: { 'content-type': 'application/json' } });
    await fetch(mocks.endpointUrl('orders?page=2'));
    const all = await mocks.requests('orders');
    expect(all.map((r) => `${r.method} ${r.url}`)).to.deep.equal([
      'GET /endpoint/orders?page=1',
      'POST /endpoint/orders',
      'GET /endpoint/orders?page=2',
    ]);
    const posts = await mocks.requests('orders', { method: 'post' });
    expect(posts.map((r) => r.body)).to.deep.equal(['{"item":3}']);
    await mocks.clearRequests('orders');
    expect(await mocks.requests('orders')).to.deep.equal([]);
    expect((await mocks.get('orders'))!.hits, 'hits outlive a cleared log').to.equal(3);
    expect(await mocks.requests('nope').catch((err: MockApiError) => err.status)).to.equal(404);
  });

  it('verifies what was sent, and says what differed when it was not', async () => {
    await mocks.add({ name: 'user', path: 'users/:id', data: { id: 1 } });
    await fetch(mocks.endpointUrl('users/7?fields=name'));
    await fetch(mocks.endpointUrl('users/8?fields=id'), { method: 'PUT', body: '{"ok":false}' });
    const [got] = await mocks.verify('user', { count: 1, method: 'GET', query: { fields: 'name' } });
    expect(got).to.include({ url: '/endpoint/users/7?fields=name', endpoint: 'user' });
    const failed = (await mocks.verify('user', { count: 1, method: 'PUT', bodyContains: '{"ok":true}' }).catch((err: unknown) => err)) as MockApiError;
    expect(failed).to.be.instanceOf(MockApiError).and.include({ status: 417 });
    expect(failed.message).to.equal(
      [
        'expected exactly 1 request matching {"name":"user","method":"PUT","bodyContains":"{\\"ok\\":true}"}, got 0',
        'closest requests:',
        '  PUT /endpoint/users/8?fields=id  (user)',
        '    body: expected "contains {\\"ok\\":true}", got "{\\"ok\\":false}"',
        '  GET /endpoint/users/7?fields=name  (user)',
        '    method: expected "PUT", got "GET"',
        '    body: expected "contains {\\"ok\\":true}", got nothing',
      ].join('\n'),
    );
    // Without a name: every log, the unmatched one too.
    await fetch(mocks.endpointUrl('nobody'));
    const all = (await mocks.requests(undefined)).map((r) => `${r.endpoint} ${r.url}`);
    // Oldest first within a log; across logs by time to the millisecond.
    expect(all.filter((line) => line.startsWith('user'))).to.deep.equal(['user /endpoint/users/7?fields=name', 'user /endpoint/users/8?fields=id']);
    expect(all).to.include('null /endpoint/nobody').and.have.length(3);
    await mocks.verify(undefined, { path: 'nobody', count: 1 });
  });

  it('verifies bodies against a bodySchema, typed as a plain object, and says which part failed', async () => {
    await mocks.add({ name: 'order', methods: ['POST'], data: {} });
    await fetch(mocks.endpointUrl('order'), { method: 'POST', body: '{"items":[{"qty":0}]}' });
    const bodySchema: Verification['bodySchema'] = { type: 'object', properties: { items: { type: 'array', minItems: 1 } } };
    expect(await mocks.verify('order', { count: 1, bodySchema })).to.have.length(1);
    const qty = { type: 'object', properties: { items: { items: { properties: { qty: { minimum: 1 } } } } } };
    const failed = (await mocks.verify('order', { bodySchema: qty }).catch((err: unknown) => err)) as MockApiError;
    expect(failed).to.be.instanceOf(MockApiError).and.include({ status: 417 });
    expect(failed.message.split('\n').slice(1)).to.deep.equal([
      'closest requests:',
      '  POST /endpoint/order  (order)',
      '    body /items/0/qty: expected "must be >= 1", got "0"',
    ]);
    // requests() sends its filter as a query string, too short for a schema: the type leaves it out.
    // @ts-expect-error bodySchema is verify()'s only
    const filter: RequestFilter = { bodySchema };
    expect(filter).to.have.property('bodySchema');
  });

  it('reads and sets scenario states, and reset puts them back at start', async () => {
    await mocks.add({
      name: 'cart',
      scenario: 'checkout',
      data: [],
      responses: [{ when: { state: 'item added' }, data: ['tea'] }],
    });
    expect(await mocks.scenarios()).to.deep.equal({ checkout: 'start' });
    await mocks.setScenarios({ checkout: 'item added' });
    expect(await (await fetch(mocks.endpointUrl('cart'))).json()).to.deep.equal(['tea']);
    expect(await mocks.setScenarios({ nope: 'start' }).catch((err: MockApiError) => err.status)).to.equal(404);
    await mocks.reset();
    await mocks.add({ name: 'cart', scenario: 'checkout', data: [] });
    expect(await mocks.scenarios()).to.deep.equal({ checkout: 'start' });
  });

  it('resets to a clean state: no endpoints, no unmatched requests', async () => {
    await mocks.add({ name: 'a', data: 1 });
    await fetch(mocks.endpointUrl('a'));
    await fetch(mocks.endpointUrl('missing'));
    await mocks.reset();
    expect(await mocks.list()).to.deep.equal([]);
    const unmatched = (await (await fetch(`${mocks.url}/api/unmatched`)).json()) as { requests: unknown[] };
    expect(unmatched.requests).to.deep.equal([]);
    await mocks.add({ name: 'a', data: 2 });
    expect((await mocks.get('a'))!.hits).to.equal(0);
  });

  it('keeps servers apart: each in-memory server has its own endpoints', async () => {
    const other = await startMockServer();
    try {
      await mocks.add({ name: 'mine', data: 1 });
      expect(await other.list()).to.deep.equal([]);
      expect(other.port).to.not.equal(mocks.port);
    } finally {
      await other.close();
    }
  });

  it('guards its loopback address with the Host check, as serve-mocks does', async () => {
    await mocks.add({ name: 'a', data: 1 });
    const status = await new Promise<number>((resolve, reject) => {
      request(mocks.endpointUrl('a'), { headers: { host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      })
        .on('error', reject)
        .end();
    });
    expect(status).to.equal(403);
  });

  it('closes once however often asked, and stops answering', async () => {
    const { url } = mocks;
    await Promise.all([mocks.close(), mocks.close()]);
    const failed = await fetch(`${url}/api/endpoints`).then(
      () => false,
      () => true,
    );
    expect(failed).to.equal(true);
  });
});

describe('startMockServer with options', () => {
  it('adds `endpoints` before it resolves, and refuses a bad one whole, closing what it opened', async () => {
    const mocks = await startMockServer({ endpoints: [{ name: 'a', data: 1 }, { name: 'b', path: 'b/:id', data: 2 }] });
    try {
      expect((await mocks.list()).map((m) => m.name)).to.deep.equal(['a', 'b']);
    } finally {
      await mocks.close();
    }
    const refused = await startMockServer({ port: 0, endpoints: [{ name: 'ok', data: 1 }, { name: 'bad name!', data: 1 }] }).catch(
      (err: unknown) => err,
    );
    expect(refused).to.be.instanceOf(MockApiError).and.include({ status: 400, field: 'name' });
  });

  it('keeps endpoints, hits and logs in a SQLite file given as `data`, across a restart', async () => {
    const temp = tempDir();
    try {
      const data = join(temp.dir, 'mocks.sqlite');
      const first = await startMockServer({ data });
      await first.add({ name: 'kept', data: { v: 1 } });
      await fetch(first.endpointUrl('kept'));
      await first.close();
      const second = await startMockServer({ data });
      try {
        expect(await second.get('kept')).to.deep.include({ data: { v: 1 }, hits: 1 });
        expect((await second.requests('kept')).map((r) => r.url)).to.deep.equal(['/endpoint/kept']);
      } finally {
        await second.close();
      }
    } finally {
      temp.cleanup();
    }
  });

  it('refuses `data` and `store` together', async () => {
    const refused = await startMockServer({ data: 'x.sqlite', store: 'redis://127.0.0.1:1' }).catch((err: Error) => err);
    expect(refused).to.be.instanceOf(TypeError);
  });

  it('takes the limits serve-mocks takes as flags', async () => {
    const mocks = await startMockServer({ maxDelay: 100, maxEndpoints: 1 });
    try {
      expect(await mocks.add({ name: 'slow', data: 1, delay: 500 }).catch((err: MockApiError) => err.field)).to.equal('delay');
      await mocks.add({ name: 'one', data: 1 });
      expect(await mocks.add({ name: 'two', data: 1 }).catch((err: MockApiError) => err.status)).to.equal(507);
    } finally {
      await mocks.close();
    }
  });

  it('answers endpoints under `basePath` too, as serve-mocks --base-path does, and refuses one under its own routes', async () => {
    const mocks = await startMockServer({ basePath: '/v1/', endpoints: [{ name: 'pet', path: 'pets/:id', data: { id: '{{params.id}}' }, template: true }] });
    try {
      const under = await fetch(`${mocks.url}/v1/pets/7`);
      expect([under.status, await under.json()]).to.deep.equal([200, { id: '7' }]);
      expect((await fetch(mocks.endpointUrl('pets/8'))).status).to.equal(200);
      expect((await fetch(`${mocks.url}/v2/pets/7`)).status).to.equal(404);
    } finally {
      await mocks.close();
    }
    const refused = await startMockServer({ basePath: '/api' }).catch((err: Error) => err);
    expect(refused).to.be.instanceOf(TypeError);
    expect((refused as Error).message).to.match(/^startMockServer: basePath: '\/api' is under \/api/);
  });
});

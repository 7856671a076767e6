import { expect } from 'chai';
import type { MockInput } from '../../../src/mocks/record/record.js';
import { startMockServer, type TestMockServer } from '../server.js';

function mock(name: string, fields: Partial<MockInput> & { data?: unknown } = {}): MockInput {
  const { data = name, ...rest } = fields;
  return { name, statusCode: 200, delay: 0, json: JSON.stringify(data), ...rest };
}

const json = (value: unknown) => JSON.stringify(value);
const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('answers from responses', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer();
    await server.store.put(
      mock('match', {
        path: 'users/:id',
        data: 'own',
        headers: { 'X-Kind': 'own', 'X-Keep': 'kept' },
        responses: [
          { when: { method: ['PUT'] }, statusCode: 204 },
          { when: { params: { id: 'admin' } }, json: json('admin') },
          { when: { query: { role: ['a', 'b'] } }, json: json('role'), headers: { 'x-kind': 'query' } },
          { when: { headers: { 'x-test': '1' } }, statusCode: 201 },
          { when: { body: { user: { id: 1 }, tags: ['x'] } }, json: json('body') },
          { when: { query: { constructor: 'x' } }, json: json('never from a prototype') },
        ],
      }),
    );
  });
  after(() => server.close());

  // [title, path, init, status, body]
  const cases: [string, string, RequestInit, number, unknown][] = [
    ['no when matches: the endpoint answers', '/endpoint/users/1', {}, 200, 'own'],
    ['a method', '/endpoint/users/1', { method: 'PUT' }, 204, undefined],
    ['a parameter', '/endpoint/users/admin', {}, 200, 'admin'],
    ['a query value in a list', '/endpoint/users/1?role=b', {}, 200, 'role'],
    ['a repeated query key, one value matching', '/endpoint/users/1?role=z&role=a', {}, 200, 'role'],
    ['a query value not in the list', '/endpoint/users/1?role=c', {}, 200, 'own'],
    ['a header, its name in any case', '/endpoint/users/1', { headers: { 'X-Test': '1' } }, 201, 'own'],
    ['a header value differing', '/endpoint/users/1', { headers: { 'x-test': '10' } }, 200, 'own'],
    ['a JSON body containing the keys', '/endpoint/users/1', post({ user: { id: 1 }, tags: ['x'], more: 2 }), 200, 'body'],
    ['a nested object must be equal', '/endpoint/users/1', post({ user: { id: 1, n: 2 }, tags: ['x'] }), 200, 'own'],
    ['arrays must be equal', '/endpoint/users/1', post({ user: { id: 1 }, tags: ['x', 'y'] }), 200, 'own'],
    ['a body that is not JSON', '/endpoint/users/1', post('user=1'), 200, 'own'],
    ['no body', '/endpoint/users/1', { method: 'POST' }, 200, 'own'],
    ['a query key found only on a prototype', '/endpoint/users/1', {}, 200, 'own'],
  ];
  for (const [title, path, init, status, body] of cases) {
    it(`first-match: ${title}`, async () => {
      const res = await server.fetch(path, init);
      expect(res.status).to.equal(status);
      expect(body === undefined ? await res.text() : await res.json()).to.deep.equal(body ?? '');
    });
  }

  it("adds a response's headers to the endpoint's, replacing one of the same name", async () => {
    const res = await server.fetch('/endpoint/users/1?role=a');
    expect([res.headers.get('x-kind'), res.headers.get('x-keep')]).to.deep.equal(['query', 'kept']);
  });

  it('logs which response answered and the status sent', async () => {
    await server.fetch('/endpoint/users/1?role=a');
    await server.fetch('/endpoint/users/2');
    const [own, role] = server.store.get('match')!.stats.requests.newestFirst();
    expect([own!.response, own!.status, role!.response, role!.status]).to.deep.equal([null, 200, 2, 200]);
  });

  it('takes each response in turn with pick sequence, wrapping round', async () => {
    const responses = [1, 2, 3].map((n) => ({ json: json(n) }));
    await server.store.put(mock('seq', { pick: 'sequence', responses }));
    const got = [];
    for (let i = 0; i < 7; i++) got.push(await (await server.fetch('/endpoint/seq')).json());
    expect(got).to.deep.equal([1, 2, 3, 1, 2, 3, 1]);
    expect(server.store.get('seq')!.stats.sequence).to.equal(1);
  });

  it('takes every response sooner or later with pick random', async () => {
    const responses = [1, 2, 3].map((n) => ({ json: json(n) }));
    await server.store.put(mock('rnd', { pick: 'random', responses }));
    const seen = new Set();
    // Each of 3 is missed by 300 uniform draws with a chance of 3 × (2/3)^300, about 1e-52.
    for (let i = 0; i < 300 && seen.size < 3; i++) seen.add(await (await server.fetch('/endpoint/rnd')).json());
    expect([...seen].sort()).to.deep.equal([1, 2, 3]);
  });
});

describe('answers with bodies, templates and delay ranges', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer();
  });
  after(() => server.close());

  it('sends a text body as is, text/plain by default', async () => {
    await server.store.put({ name: 'csv', statusCode: 200, delay: 0, body: 'a,b\n1,2\n' });
    const res = await server.fetch('/endpoint/csv');
    expect(res.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
    expect(await res.text()).to.equal('a,b\n1,2\n');
  });

  it('sends a text body with the Content-Type its headers give', async () => {
    const headers = { 'Content-Type': 'application/xml' };
    await server.store.put({ name: 'xml', statusCode: 200, delay: 0, body: '<a/>', headers });
    const res = await server.fetch('/endpoint/xml');
    expect(res.headers.get('content-type')).to.equal('application/xml');
    expect(await res.text()).to.equal('<a/>');
  });

  it('renders data and headers from the request', async () => {
    await server.store.put(
      mock('tpl', {
        path: 'items/:id',
        template: true,
        data: { id: '{{params.id}}', q: '{{query.q}}', m: '{{method}}', b: '{{body.n}}', h: '{{headers.x-a}}' },
        headers: { 'X-Echo': 'item {{params.id}}' },
      }),
    );
    const res = await server.fetch('/endpoint/items/7?q=hi', post({ n: 'five' }, { 'x-a': 'ah' }));
    expect(res.headers.get('x-echo')).to.equal('item 7');
    expect(await res.json()).to.deep.equal({ id: '7', q: 'hi', m: 'POST', b: 'five', h: 'ah' });
  });

  it('renders a text body and a response of its own', async () => {
    await server.store.put({
      name: 'greet',
      path: 'greet/:who',
      statusCode: 200,
      delay: 0,
      template: true,
      body: 'hello {{params.who}}',
      responses: [{ when: { params: { who: 'json' } }, json: json({ who: '{{params.who}}' }) }],
    });
    expect(await (await server.fetch('/endpoint/greet/ada')).text()).to.equal('hello ada');
    expect(await (await server.fetch('/endpoint/greet/json')).json()).to.deep.equal({ who: 'json' });
  });

  it('answers a template that fails to render with 500 naming the field, and logs the 500', async () => {
    await server.store.put(mock('broken', { template: true, data: { a: ['{{nosuch 1}}'] } }));
    const res = await server.fetch('/endpoint/broken');
    expect(res.status).to.equal(500);
    const body = await res.json();
    expect(body.success).to.equal(false);
    expect(body.message).to.match(/^template error/).and.include('data.a[0]');
    expect(server.store.get('broken')!.stats.requests.newestFirst(1)[0]!.status).to.equal(500);
  });

  it('answers HEAD of a templated endpoint with its headers and no body', async () => {
    const res = await server.fetch('/endpoint/items/7', { method: 'HEAD' });
    expect(res.status).to.equal(200);
    expect(Number(res.headers.get('content-length'))).to.be.above(0);
    expect(await res.text()).to.equal('');
  });

  it('holds the answer back by a delay drawn from its range', async function () {
    this.timeout(60_000);
    await server.store.put(mock('range', { delay: { min: 200, max: 400 } }));
    const times = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      await (await server.fetch('/endpoint/range')).text();
      times.push(performance.now() - start);
    }
    expect(Math.min(...times)).to.be.at.least(195);
    // 400 ms at most on an idle machine; several times that on a loaded one.
    expect(Math.max(...times)).to.be.below(5000);
  });
});

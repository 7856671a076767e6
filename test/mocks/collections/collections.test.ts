import { expect } from 'chai';
import { get } from 'node:http';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';
import { jsonServerDb, QUERY_CASES } from './json-server-db.js';

/** Makes each top-level key of `db` a collection endpoint through the API. */
export async function addCollections(server: TestMockServer, db: Record<string, unknown>): Promise<void> {
  for (const [name, data] of Object.entries(db)) await addEndpoint(server, { name, data, collection: true });
}

const send = (server: TestMockServer, method: string, path: string, body?: unknown) =>
  server.fetch(`/endpoint/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('collections: json-server README query examples', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer();
    await addCollections(server, jsonServerDb());
  });
  after(() => server.close());

  for (const [path, ids, total, rels] of QUERY_CASES) {
    it(`GET /${path} answers ids ${JSON.stringify(ids)}`, async () => {
      const res = await server.fetch(`/endpoint/${path}`);
      expect(res.status).to.equal(200);
      const items = (await res.json()) as { id: number }[];
      expect(items.map((item) => item.id)).to.deep.equal(ids);
      expect(res.headers.get('x-total-count')).to.equal(total === null ? null : String(total));
      const link = res.headers.get('link') ?? '';
      expect([...link.matchAll(/rel="(\w+)"/g)].map((m) => m[1])).to.deep.equal(rels);
    });
  }

  it('gives page links that keep the rest of the query', async () => {
    const res = await server.fetch('/endpoint/posts?_page=2&_limit=10&user=c');
    expect(res.headers.get('link')).to.equal(
      '</endpoint/posts?_page=1&_limit=10&user=c>; rel="first", </endpoint/posts?_page=1&_limit=10&user=c>; ' +
        'rel="prev", </endpoint/posts?_page=3&_limit=10&user=c>; rel="next", ' +
        '</endpoint/posts?_page=3&_limit=10&user=c>; rel="last"',
    );
  });

  it('exposes its page headers to scripts in one Access-Control-Expose-Headers line', async () => {
    // fetch joins repeated headers, so the raw head is read: two lines would be two lines here.
    const raw = await new Promise<string[]>((resolve, reject) => {
      get(`${server.url}/endpoint/posts?_page=2&_limit=10`, (res) => {
        res.resume();
        resolve(res.rawHeaders);
      }).on('error', reject);
    });
    const exposed = raw.filter((_, i) => i % 2 === 1 && /^access-control-expose-headers$/i.test(raw[i - 1]!));
    expect(exposed).to.deep.equal(['X-Snippetkit-Answer, X-Total-Count, Link']);
  });

  it('answers one item by id, and 404 with {} for a missing one', async () => {
    const one = await server.fetch('/endpoint/posts/1');
    expect(one.status).to.equal(200);
    expect(await one.json()).to.deep.equal(jsonServerDb().posts[0]);
    const missing = await server.fetch('/endpoint/posts/99');
    expect(missing.status).to.equal(404);
    expect(await missing.json()).to.deep.equal({});
  });

  it('answers a singular resource (profile) as one object', async () => {
    const res = await server.fetch('/endpoint/profile');
    expect(await res.json()).to.deep.equal({ name: 'typicode' });
    expect((await server.fetch('/endpoint/profile/1')).status).to.equal(404);
  });
});

describe('collections: CRUD as json-server', () => {
  let server: TestMockServer;
  beforeEach(async () => {
    server = await startMockServer();
    await addCollections(server, jsonServerDb());
  });
  afterEach(() => server.close());

  it('POST adds an item with the next id and answers 201', async () => {
    const res = await send(server, 'POST', 'posts', { title: 'new' });
    expect(res.status).to.equal(201);
    expect(await res.json()).to.deep.equal({ title: 'new', id: 31 });
    expect(await (await server.fetch('/endpoint/posts/31')).json()).to.deep.equal({ title: 'new', id: 31 });
  });

  it('POST with a text id keeps it; with an id there already is a 409 naming id', async () => {
    expect((await send(server, 'POST', 'posts', { id: 'abc', title: 't' })).status).to.equal(201);
    const res = await send(server, 'POST', 'posts', { id: 1, title: 'again' });
    expect(res.status).to.equal(409);
    const message = 'an item with id 1 exists already';
    expect(await res.json()).to.deep.equal({ success: false, message, field: 'id' });
  });

  it('PUT replaces an item, keeping its id; PATCH merges', async () => {
    const put = await send(server, 'PUT', 'posts/1', { id: 7, title: 'replaced' });
    expect(put.status).to.equal(200);
    expect(await put.json()).to.deep.equal({ id: 1, title: 'replaced' });
    const patch = await send(server, 'PATCH', 'posts/2', { views: 21 });
    expect(await patch.json()).to.deep.equal({ ...jsonServerDb().posts[1], views: 21 });
    expect((await send(server, 'PATCH', 'posts/99', { views: 1 })).status).to.equal(404);
  });

  it('DELETE removes an item and answers {}', async () => {
    const res = await send(server, 'DELETE', 'posts/1');
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({});
    expect((await server.fetch('/endpoint/posts/1')).status).to.equal(404);
    expect((await send(server, 'DELETE', 'posts/1')).status).to.equal(404);
  });

  it('PUT and PATCH change a singular resource', async () => {
    await send(server, 'PATCH', 'profile', { age: 3 });
    expect(await (await server.fetch('/endpoint/profile')).json()).to.deep.equal({ name: 'typicode', age: 3 });
    await send(server, 'PUT', 'profile', { name: 'x' });
    expect(await (await server.fetch('/endpoint/profile')).json()).to.deep.equal({ name: 'x' });
  });

  it("sends the record's headers and waits out its delay", async () => {
    await addEndpoint(server, { name: 'slow', data: [], collection: true, delay: 300, headers: { 'X-Kind': 'c' } });
    const started = Date.now();
    const res = await server.fetch('/endpoint/slow');
    expect(Date.now() - started).to.be.at.least(290);
    expect(res.headers.get('x-kind')).to.equal('c');
  });

  it('counts hits and logs each request', async () => {
    await send(server, 'POST', 'posts', { title: 'logged' });
    await server.fetch('/endpoint/posts?q=x');
    const res = await server.fetch('/api/endpoint/posts/requests');
    const { requests } = (await res.json()) as { requests: { method: string; body: string; status: number }[] };
    expect(requests.map((r) => [r.method, r.status, r.body])).to.deep.equal([
      ['GET', 200, ''],
      ['POST', 201, '{"title":"logged"}'],
    ]);
  });
});

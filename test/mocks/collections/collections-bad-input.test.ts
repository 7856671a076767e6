import { expect } from 'chai';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';

describe('collections: bad input', () => {
  let server: TestMockServer;
  beforeEach(async () => {
    server = await startMockServer({ config: { maxBody: 4096 } });
    const res = await server.putJson('/api/endpoint/posts', {
      data: [{ id: 1, title: 'a'.repeat(40) }],
      collection: true,
    });
    expect(res.status).to.equal(201);
  });
  afterEach(() => server.close());

  const post = (body: string) =>
    server.fetch('/endpoint/posts', { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  // [record, field, message]
  const records: [Record<string, unknown>, string, string][] = [
    [{ data: 'x', collection: true }, 'data',
      'the data of a collection must be a list of objects, or one object'],
    [{ data: [1], collection: true }, 'data[0]', 'data[0] must be an object: a collection is a list of objects'],
    [{ data: [{ title: 'a' }, { id: '' }], collection: true }, 'data[1].id', 'data[1].id must be a number or a non-empty string'],
    [{ data: [{ id: 1 }, { id: '1' }], collection: true }, 'data[1].id', 'data[1].id "1" is there twice'],
    [{ data: [], collection: true, responses: [] }, 'responses',
      'responses cannot be set on a collection: its answers are json-server\'s'],
    [{ data: [], collection: true, path: 'users/:id' }, 'path',
      'the path of a collection has no parameters: items are at <path>/<id>'],
    [{ data: [], collection: 'yes' }, 'collection', 'collection must be true or false'],
  ];
  for (const [record, field, message] of records) {
    it(`refuses a collection record with a bad ${field}`, async () => {
      const res = await server.putJson('/api/endpoint/bad', record);
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({ success: false, message, field });
      expect(server.store.get('bad')).to.equal(undefined);
    });
  }

  it('answers a body that is not JSON with 400, changing nothing', async () => {
    const res = await post('{"title": ');
    expect(res.status).to.equal(400);
    expect((await res.json()).message).to.equal(
      "the request body is not valid JSON: line 1, column 11: expected a value but the text ends",
    );
    expect(await (await server.fetch('/endpoint/posts')).json()).to.have.length(1);
  });

  it('answers a JSON body that is not an object with 400', async () => {
    const res = await post('[1,2]');
    expect(res.status).to.equal(400);
    expect(await res.json()).to.deep.equal({ success: false, message: 'request body must be a JSON object' });
  });

  it('answers a body over --max-body with 413', async () => {
    const res = await post(JSON.stringify({ title: 'x'.repeat(5000) }));
    expect(res.status).to.equal(413);
    const message = 'request body too large (the limit is 4096 bytes)';
    expect(await res.json()).to.deep.equal({ success: false, message });
  });

  it('answers a catastrophic-backtracking _like pattern quickly', async () => {
    // The first _like loads the matcher (RE2 and its module), which took 1.2 s of a loaded machine once:
    // that is start-up, not matching, so a harmless pattern goes first and only the hostile one is timed.
    expect((await server.fetch('/endpoint/posts?title_like=a')).status).to.equal(200);
    const started = Date.now();
    const res = await server.fetch(`/endpoint/posts?title_like=${encodeURIComponent('^(a+)+$')}b`);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal([]);
    // A backtracking engine takes minutes on 40 a's; RE2 takes microseconds. 5x margin on a loaded machine.
    expect(Date.now() - started).to.be.below(1000);
  });

  it('refuses a _like pattern that does not compile or is too long, naming the key', async () => {
    const bad = await server.fetch('/endpoint/posts?title_like=(');
    expect(bad.status).to.equal(400);
    expect((await bad.json()).field).to.equal('title_like');
    const long = await server.fetch(`/endpoint/posts?title_like=${'a'.repeat(300)}`);
    expect(await long.json()).to.deep.equal({
      success: false,
      message: 'title_like: the pattern is longer than 256 characters',
      field: 'title_like',
    });
  });

  it('refuses a query with more filter values than 64, before filtering', async () => {
    const query = Array.from({ length: 65 }, (_, i) => `id=${i}`).join('&');
    const res = await server.fetch(`/endpoint/posts?${query}`);
    expect(res.status).to.equal(400);
    expect(await res.json()).to.deep.equal({ success: false, message: 'a query may hold at most 64 filter values' });
    expect((await server.fetch(`/endpoint/posts?${query.slice(0, query.lastIndexOf('&'))}`)).status).to.equal(200);
  });

  it('refuses more than 4 _like patterns in a query', async () => {
    const res = await server.fetch('/endpoint/posts?title_like=a&title_like=b&id_like=1&id_like=2&id_like=3');
    expect(await res.json()).to.deep.equal({
      success: false,
      message: 'a query may hold at most 4 _like patterns',
      field: 'title_like',
    });
  });

  it('refuses a method a route does not answer with 405 and Allow', async () => {
    const res = await server.fetch('/endpoint/posts', { method: 'DELETE' });
    expect(res.status).to.equal(405);
    expect(res.headers.get('allow')).to.equal('GET, HEAD, POST');
  });
});

describe('collections: hostile requests to the json-server 0.17 relations', () => {
  let server: TestMockServer;
  beforeEach(async () => {
    server = await startMockServer();
    await addEndpoint(server, { name: 'posts', data: [{ id: 1 }], collection: true });
    await addEndpoint(server, { name: 'comments', data: [{ id: 1, postId: 1 }], collection: true });
  });
  afterEach(() => server.close());

  // [method, path, body, status]
  const CASES: [string, string, string | undefined, number][] = [
    ['POST', 'posts/1/comments', '[1]', 400],
    ['POST', 'posts/1/comments', '"x"', 400],
    ['POST', 'posts/1/__proto__', '{}', 404],
    ['GET', 'posts/1/constructor', undefined, 404],
    ['DELETE', 'posts/1/comments', undefined, 404],
    ['GET', `posts?_expand=${encodeURIComponent('__proto__')}`, undefined, 200],
    ['GET', `posts?callback=${encodeURIComponent('x});alert(1);//')}`, undefined, 400],
  ];
  for (const [method, path, body, status] of CASES) {
    it(`answers ${method} /${path} ${status}, changing nothing`, async () => {
      const res = await server.fetch(`/endpoint/${path}`, { method, headers: { 'content-type': 'application/json' }, body });
      expect(res.status).to.equal(status);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(await (await server.fetch('/endpoint/comments')).json()).to.deep.equal([{ id: 1, postId: 1 }]);
      expect(await (await server.fetch('/endpoint/posts')).json()).to.deep.equal([{ id: 1 }]);
      expect(server.errors).to.deep.equal([]);
    });
  }
});

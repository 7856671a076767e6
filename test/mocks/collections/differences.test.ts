import { expect } from 'chai';
import { MAX_EXPANDED_BYTES } from '../../../src/mocks/collections/relations.js';
import { MAX_RELATED } from '../../../src/mocks/serve/collection-relations.js';
import { pluralDb, startDbServer, type DbServer } from './plural-db.js';

// Where we answer otherwise than json-server 0.17 on purpose (docs/mock-api.md, "Differences from json-server 0.17").
describe('collections: deliberate differences from json-server 0.17', () => {
  let running: DbServer;
  beforeEach(async () => {
    running = await startDbServer(JSON.stringify(pluralDb()));
  });
  afterEach(() => running.close());
  const send = (method: string, path: string, body?: unknown) =>
    running.server.fetch(`/endpoint/${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('answers a POST with an id there already 409 naming id (json-server: 500 and a stack), storing nothing', async () => {
    const res = await send('POST', 'posts', { id: 1, body: 'again' });
    expect(res.status).to.equal(409);
    expect(await res.json()).to.deep.equal({ success: false, message: 'an item with id 1 exists already', field: 'id' });
    expect(await (await send('GET', 'posts')).json()).to.deep.equal(pluralDb().posts);
  });

  it('runs _like with RE2: a lookahead is a 400 naming the key (json-server: JavaScript RegExp)', async () => {
    const res = await send('GET', `tags?body_like=${encodeURIComponent('(?=p)photo')}`);
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { field: string }).field).to.equal('body_like');
  });

  it('answers a POST without an id in text-id collections a 7-character nanoid-alphabet id, new each time', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const res = await send('POST', 'refs', { url: 'http://foo.com', postId: 1 });
      expect(res.status).to.equal(201);
      const { id } = (await res.json()) as { id: string };
      expect(id).to.match(/^[A-Za-z0-9_-]{7}$/);
      ids.add(id);
    }
    expect(ids.size).to.equal(20);
  });

  it(`refuses more than ${MAX_RELATED} _embed and _expand names with a 400`, async () => {
    const query = Array.from({ length: MAX_RELATED + 1 }, () => '_embed=comments').join('&');
    const res = await send('GET', `posts?${query}`);
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { field: string }).field).to.equal('_embed');
  });

  it('refuses an _expand that would copy more than its byte cap into one answer, with a 400', async () => {
    const big = 'x'.repeat(500_000);
    const items = Array.from({ length: Math.ceil(MAX_EXPANDED_BYTES / 500_000) + 2 }, (_, i) => ({ id: i + 1, userId: 1 }));
    const text = JSON.stringify({ users: [{ id: 1, big }], notes: items });
    const blown = await startDbServer(text);
    try {
      const res = await blown.server.fetch('/endpoint/notes?_expand=user');
      expect(res.status).to.equal(400);
      expect(((await res.json()) as { field: string }).field).to.equal('_expand');
      const page = await blown.server.fetch('/endpoint/notes?_expand=user&_page=1&_limit=2');
      expect(page.status).to.equal(200);
    } finally {
      await blown.close();
    }
  });

  it('embeds nothing into an item without an id (json-server: every item lacking the key)', async () => {
    const odd = await startDbServer(JSON.stringify({ posts: [{ title: 'no id' }], comments: [{ id: 1 }, { id: 2, postId: 1 }] }));
    try {
      const res = await odd.server.fetch('/endpoint/posts?_embed=comments');
      expect(await res.json()).to.deep.equal([{ title: 'no id', comments: [] }]);
    } finally {
      await odd.close();
    }
  });

  it('ignores ?callback= on a write, answering JSON (json-server: JSONP)', async () => {
    const res = await send('POST', 'posts?callback=cb', { body: 'x' });
    expect(res.status).to.equal(201);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
  });

  it('gives Location as the new item\'s path (json-server: the full URL)', async () => {
    const res = await send('POST', 'posts', { body: 'foo', booleanValue: true, integerValue: 1 });
    expect(res.status).to.equal(201);
    expect(res.headers.get('location')).to.equal('/endpoint/posts/3');
    expect(await res.json()).to.deep.equal({ body: 'foo', booleanValue: true, integerValue: 1, id: 3 });
  });

  it('serves a collection named db at /endpoint/db (json-server: /db answers the whole database)', async () => {
    const named = await startDbServer(JSON.stringify({ db: [{ id: 1 }], posts: [] }));
    try {
      expect(await (await named.server.fetch('/endpoint/db')).json()).to.deep.equal([{ id: 1 }]);
    } finally {
      await named.close();
    }
  });
});

describe('collections: GET /db only where there are collections', () => {
  it('leaves /endpoint/db unmatched (404) on a server without a collection', async () => {
    const running = await startDbServer('{}');
    try {
      const res = await running.server.fetch('/endpoint/db');
      expect(res.status).to.equal(404);
      expect(((await res.json()) as { success: boolean }).success).to.equal(false);
    } finally {
      await running.close();
    }
  });
});

import { expect } from 'chai';
import { pluralDb, startDbServer, type DbServer } from './plural-db.js';

// json-server 0.17.4's `__tests__/server/plural.js`, restated: the same database, the same requests.
const db = pluralDb();
const { comments, tags, posts, buyers, nested, deep, list, users } = db;

// [request path, the body json-server 0.17 answers, X-Total-Count or null]
const READS: [string, unknown, string | null][] = [
  ['comments?postId=1&published=true', [comments[0]], null],
  ['users?tel=123', [users[1]], null],
  ['comments?id=1&id=2', [comments[0], comments[1]], null],
  ['deep?a.b=1', [deep[0]], null],
  ['comments?foo=1&bar=2', comments, null],
  ['tags?q=pho', [tags[1], tags[2]], null],
  ['deep?q=1', deep, null],
  ['tags?q=nope', [], null],
  ['comments?q=qu&published=true', [comments[3]], null],
  ['comments?q=foo&q=bar', [comments[0]], null],
  ['comments?published=false', [comments[1], comments[2], comments[4]], null],
  ['comments?_end=2', comments.slice(0, 2), '5'],
  ['tags?_sort=body', [tags[1], tags[0], tags[2]], null],
  ['tags?_sort=body&_order=DESC', [tags[2], tags[0], tags[1]], null],
  ['tags?_sort=body&_order=desc', [tags[2], tags[0], tags[1]], null],
  ['posts?_sort=id&_order=DESC', [...posts].reverse(), null],
  ['nested?_sort=resource.name', [nested[1], nested[0], nested[2]], null],
  ['buyers?_sort=country,total&_order=asc,desc', [8, 7, 6, 3, 4, 5, 2, 1, 0].map((i) => buyers[i]), null],
  ['comments?_start=1&_end=2', comments.slice(1, 2), '5'],
  ['comments?_start=1&_limit=1', comments.slice(1, 2), '5'],
  ['list?_page=2', list.slice(10, 20), '15'],
  ['list?_page=2&_limit=1', list.slice(1, 2), '15'],
  ['comments?id_gte=2&id_lte=3', comments.slice(1, 3), null],
  ['comments?id_ne=1', comments.slice(1), null],
  ['comments?id_ne=1&id_ne=2', comments.slice(2), null],
  ['tags?body_like=photo', [tags[1], tags[2]], null],
  ['tags?body_like=photo&body_like=tech', tags, null],
  ['posts/1', posts[0], null],
  ['refs/abcd-1234', db.refs[0], null],
  ['stringIds/1234', db.stringIds[0], null],
];

describe("collections: json-server 0.17's plural router tests", () => {
  let running: DbServer;
  before(async () => {
    running = await startDbServer(JSON.stringify(db));
  });
  after(() => running.close());

  for (const [path, body, total] of READS) {
    it(`GET /${path} answers as json-server 0.17 does`, async () => {
      const res = await running.server.fetch(`/endpoint/${path}`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/json/);
      expect(await res.json()).to.deep.equal(body);
      expect(res.headers.get('x-total-count')).to.equal(total);
    });
  }

  it('answers the page links of list?_page=2&_limit=1', async () => {
    const res = await running.server.fetch('/endpoint/list?_page=2&_limit=1');
    expect(res.headers.get('link')).to.equal(
      ['</endpoint/list?_page=1&_limit=1>; rel="first"', '</endpoint/list?_page=1&_limit=1>; rel="prev"',
        '</endpoint/list?_page=3&_limit=1>; rel="next"', '</endpoint/list?_page=15&_limit=1>; rel="last"'].join(', '),
    );
  });

  it('answers 404 with {} for a missing item and a missing collection', async () => {
    for (const path of ['posts/9999', 'undefined']) {
      const res = await running.server.fetch(`/endpoint/${path}`);
      expect(res.status).to.equal(404);
    }
    expect(await (await running.server.fetch('/endpoint/posts/9999')).json()).to.deep.equal({});
  });

  it('does not fail on a null value in a filtered field', async () => {
    const withNull = await startDbServer(JSON.stringify({ posts: [...posts, { id: 99, body: null }] }));
    try {
      expect(await (await withNull.server.fetch('/endpoint/posts?body=foo')).json()).to.deep.equal([posts[0]]);
    } finally {
      await withNull.close();
    }
  });
});

describe('collections: items without ids (json-server 0.17 serves them)', () => {
  let running: DbServer;
  beforeEach(async () => {
    running = await startDbServer(JSON.stringify(db));
  });
  afterEach(() => running.close());

  it('serves, filters, sorts and pages a collection whose items have no id', async () => {
    const fetchJson = async (path: string) => (await running.server.fetch(`/endpoint/${path}`)).json();
    expect(await fetchJson('nested')).to.deep.equal(nested);
    expect(await fetchJson('nested?resource.name=howe')).to.deep.equal([nested[2]]);
    expect(await fetchJson('nested?_sort=resource.name&_order=desc')).to.deep.equal([nested[2], nested[0], nested[1]]);
    expect(await fetchJson('nested?_page=2&_limit=2')).to.deep.equal([nested[2]]);
  });

  it('gives a POST to a collection without ids the id 1, then the next', async () => {
    const post = (body: unknown) =>
      running.server.fetch('/endpoint/deep', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect(await (await post({ a: 2 })).json()).to.deep.equal({ a: 2, id: 1 });
    expect(await (await post({ a: 3 })).json()).to.deep.equal({ a: 3, id: 2 });
  });

  it('takes an HTML form (x-www-form-urlencoded) as json-server does: values as text, a repeated name a list', async () => {
    const form = (method: string, path: string, body: string) =>
      running.server.fetch(`/endpoint/${path}`, {
        method,
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
        body,
      });
    const created = await form('POST', 'posts', 'body=foo+bar&booleanValue=true&integerValue=1&tag=a&tag=b&__proto__=x');
    expect(created.status).to.equal(201);
    const item = { body: 'foo bar', booleanValue: 'true', integerValue: '1', tag: ['a', 'b'], ['__proto__']: 'x', id: 3 };
    expect(JSON.parse(await created.text())).to.deep.equal(JSON.parse(JSON.stringify(item)));
    expect(({} as { polluted?: unknown }).polluted).to.equal(undefined);
    const patched = await form('PATCH', 'posts/3', 'body=caf%C3%A9');
    expect(((await patched.json()) as { body: string }).body).to.equal('café');
    // A form to a nested route gets the parent's key, as a JSON body does.
    const comment = await form('POST', 'posts/1/comments', 'body=hi');
    expect(await comment.json()).to.deep.include({ body: 'hi', postId: '1' });
    // Bounded as json-server's parser is (1,000 fields), and a broken escape is said, storing nothing.
    const many = await form('POST', 'posts', Array.from({ length: 1001 }, (_, i) => `f${i}=x`).join('&'));
    expect(many.status).to.equal(413);
    expect((await form('POST', 'posts', 'body=%E0%A4%A')).status).to.equal(400);
    expect(((await (await running.server.fetch('/endpoint/posts')).json()) as unknown[]).length).to.equal(3); // the two seeded and the form's
  });
});

describe("collections: json-server 0.17's relations (nested routes, _embed, _expand, DELETE, /db)", () => {
  let running: DbServer;
  beforeEach(async () => {
    running = await startDbServer(JSON.stringify(db));
  });
  afterEach(() => running.close());
  const fetchJson = async (path: string) => (await running.server.fetch(`/endpoint/${path}`)).json();
  const send = (method: string, path: string, body?: unknown) =>
    running.server.fetch(`/endpoint/${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('GET /posts/1/comments answers the comments whose postId is 1', async () => {
    expect(await fetchJson('posts/1/comments')).to.deep.equal([comments[0], comments[1]]);
  });

  it('POST /posts/1/comments sets postId to the path\'s "1"', async () => {
    const res = await send('POST', 'posts/1/comments', { body: 'foo' });
    expect(res.status).to.equal(201);
    expect(await res.json()).to.deep.equal({ body: 'foo', postId: '1', id: 6 });
  });

  it('answers 404 {} for a nested collection that is not there, and for other methods', async () => {
    expect((await send('GET', 'posts/1/nothing')).status).to.equal(404);
    const put = await send('PUT', 'posts/1/comments', { body: 'x' });
    expect([put.status, await put.json()]).to.deep.equal([404, {}]);
  });

  const embedded = (post: (typeof posts)[number], extra: Record<string, unknown>) => ({ ...post, ...extra });
  const RELATED: [string, unknown][] = [
    ['posts?_embed=comments', [
      embedded(posts[0], { comments: [comments[0], comments[1]] }),
      embedded(posts[1], { comments: [comments[2], comments[3], comments[4]] }),
    ]],
    ['posts?_embed=comments&_embed=refs', [
      embedded(posts[0], { comments: [comments[0], comments[1]], refs: [db.refs[0]] }),
      embedded(posts[1], { comments: [comments[2], comments[3], comments[4]], refs: [] }),
    ]],
    ['posts/1?_embed=comments', embedded(posts[0], { comments: [comments[0], comments[1]] })],
    ['posts/1?_embed=comments&_embed=refs', embedded(posts[0], { comments: [comments[0], comments[1]], refs: [db.refs[0]] })],
    ['refs?_expand=post', [{ ...db.refs[0], post: posts[0] }]],
    ['comments/1?_expand=post', { ...comments[0], post: posts[0] }],
    ['refs?_expand=post&_expand=user', [{ ...db.refs[0], post: posts[0], user: users[0] }]],
    ['comments/1?_expand=post&_expand=user', { ...comments[0], post: posts[0], user: users[0] }],
  ];
  for (const [path, body] of RELATED) {
    it(`GET /${path} answers as json-server 0.17 does`, async () => {
      expect(await fetchJson(path)).to.deep.equal(body);
    });
  }

  it('DELETE /posts/1 answers {} and removes what named post 1 (comments 1 and 2, ref abcd-1234)', async () => {
    const res = await send('DELETE', 'posts/1');
    expect([res.status, await res.json()]).to.deep.equal([200, {}]);
    expect(await fetchJson('posts')).to.deep.equal([posts[1]]);
    expect(await fetchJson('comments')).to.deep.equal(comments.slice(2));
    expect(await fetchJson('refs')).to.deep.equal([]);
    const missing = await send('DELETE', 'posts/9001');
    expect([missing.status, await missing.json()]).to.deep.equal([404, {}]);
  });

  it('GET /db answers every collection', async () => {
    const res = await running.server.fetch('/endpoint/db');
    expect(res.headers.get('content-type')).to.match(/json/);
    expect(await res.json()).to.deep.equal(db);
  });
});

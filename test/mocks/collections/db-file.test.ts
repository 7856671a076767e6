import { expect } from 'chai';
import { request } from 'node:http';
import { EXAMPLE_DB, startDbServer, type DbServer } from './plural-db.js';

describe('collections: a json-server database file as json-server 0.17 reads it', () => {
  let running: DbServer | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });
  const fetchJson = async (path: string) => (await running!.server.fetch(`/endpoint/${path}`)).json();

  it("serves json-server's own example database (src/cli/example.json)", async () => {
    running = await startDbServer(EXAMPLE_DB);
    expect(await fetchJson('posts')).to.deep.equal([{ id: 1, title: 'json-server', author: 'typicode' }]);
    expect(await fetchJson('comments?postId=1')).to.deep.equal([{ id: 1, body: 'some comment', postId: 1 }]);
    expect(await fetchJson('profile')).to.deep.equal({ name: 'typicode' });
    expect(running.loader.problems()).to.deep.equal([]);
  });

  it('ignores a $schema key, serving the rest (json-server 0.17 $schema-ignore test)', async () => {
    running = await startDbServer(
      JSON.stringify({ $schema: 'http://some.schema.somewhere/', user: { name: 'foo', email: 'foo@example.com' } }),
    );
    expect(await fetchJson('user')).to.deep.equal({ name: 'foo', email: 'foo@example.com' });
    expect(running.server.store.get('$schema')).to.equal(undefined);
    expect(running.loader.problems()).to.deep.equal([]);
  });

  it('reports each key it cannot serve, with its place, and serves the others', async () => {
    const text = '{\n  "posts": [{ "id": 1 }],\n  "bad key": [],\n  "count": 3,\n  "tags": [{ "id": 1 }, { "id": 1 }]\n}\n';
    running = await startDbServer(text);
    expect(await fetchJson('posts')).to.deep.equal([{ id: 1 }]);
    const problems = running.loader.problems().map(({ line, field, message }) => ({ line, field, message }));
    expect(problems).to.have.length(3);
    expect(problems[0]).to.deep.include({ line: 3, field: 'name' });
    expect(problems[0]!.message).to.match(/^name must be/);
    expect(problems[1]).to.deep.equal({ line: 4, field: 'data',
      message: 'the data of a collection must be a list of objects, or one object' });
    expect(problems[2]).to.deep.equal({ line: 5, field: 'data[1].id', message: 'data[1].id 1 is there twice' });
    const { errors } = (await (await running.server.fetch('/api/sources')).json()) as { errors: object[] };
    expect(errors).to.have.length(3);
    expect((await running.server.fetch('/endpoint/count')).status).to.equal(404);
  });

  it('answers a POST with 201 and a Location naming the new item, exposed to scripts', async () => {
    running = await startDbServer(EXAMPLE_DB);
    const url = `${running.server.url}/endpoint/posts?x=1`;
    // The raw head: fetch would join repeated Access-Control-Expose-Headers lines.
    const head = await new Promise<{ status?: number; raw: string[] }>((resolve, reject) => {
      const sent = request(url, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://a.test' } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode, raw: res.rawHeaders });
      });
      sent.on('error', reject);
      sent.end(JSON.stringify({ title: 'new' }));
    });
    expect(head.status).to.equal(201);
    const headers = (name: string) => head.raw.filter((_, i) => i % 2 === 1 && head.raw[i - 1]!.toLowerCase() === name);
    expect(headers('location')).to.deep.equal(['/endpoint/posts/2']);
    expect(headers('access-control-expose-headers')).to.deep.equal(['X-Snippetkit-Answer, Location']);
    expect(await fetchJson('posts/2')).to.deep.equal({ title: 'new', id: 2 });
  });
});

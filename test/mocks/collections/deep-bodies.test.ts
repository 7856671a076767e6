import { expect } from 'chai';
import { startMockServer, type TestMockServer } from '../server.js';

// A collection item nested deeper than JSON.stringify can follow must be refused where the body is
// parsed, not reach the save, whose JSON.stringify of the state overflowed the stack (a 500).
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('request bodies nested too deeply (shared/json-check.ts MAX_JSON_DEPTH)', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer({ config: { maxBody: 1024 * 1024 } });
    expect((await server.putJson('/api/endpoint/posts', { data: [], collection: true })).status).to.equal(201);
  });
  after(() => server.close());

  let errorsBefore = 0;
  beforeEach(() => (errorsBefore = server.errors.length));
  const newErrors = () => server.errors.slice(errorsBefore);
  const post = (path: string, body: string) =>
    server.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('stores and serves a collection item nested 1,000 deep', async () => {
    const res = await post('/endpoint/posts', `{"id":1,"x":${nested(998)}}`);
    expect(res.status).to.equal(201);
    expect((await server.fetch('/endpoint/posts/1')).status).to.equal(200);
  });

  it('refuses a collection item nested 5,000 deep with a 400 saying so, and keeps nothing', async () => {
    const res = await post('/endpoint/posts', `{"id":2,"x":${nested(5000)}}`);
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { message: string }).message).to.match(/nested too deeply$/);
    expect((await server.fetch('/endpoint/posts/2')).status).to.equal(404);
    expect(newErrors()).to.deep.equal([]);
  });

});

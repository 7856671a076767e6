import { expect } from 'chai';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.js';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';

const SEED = [{ id: 1, title: 'seed' }];

describe('collections: live data in the data file', () => {
  let temp: ReturnType<typeof tempDir>;
  let file: string;
  beforeEach(() => {
    temp = tempDir();
    file = join(temp.dir, 'mocks.sqlite');
  });
  afterEach(() => temp.cleanup());

  const post = (server: TestMockServer, body: unknown) =>
    server.fetch('/endpoint/posts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const titles = async (server: TestMockServer) =>
    ((await (await server.fetch('/endpoint/posts')).json()) as { title: string }[]).map((item) => item.title);

  /** Runs `steps` on a server over the shared data file, then closes it. */
  const withServer = async (steps: (server: TestMockServer) => Promise<void>) => {
    const server = await startMockServer({ file });
    try {
      await steps(server);
    } finally {
      await server.close();
    }
  };

  it('keeps a POSTed item across a restart', async () => {
    await withServer(async (server) => {
      await addEndpoint(server, { name: 'posts', data: SEED, collection: true });
      expect((await post(server, { title: 'posted' })).status).to.equal(201);
    });
    await withServer(async (server) => {
      expect(await titles(server)).to.deep.equal(['seed', 'posted']);
    });
  });

  it('POST /api/endpoint/<name>/reset restores the record\'s data, in the file too', async () => {
    await withServer(async (server) => {
      await addEndpoint(server, { name: 'posts', data: SEED, collection: true });
      await post(server, { title: 'posted' });
      const res = await server.fetch('/api/endpoint/posts/reset', { method: 'POST' });
      expect(await res.json()).to.deep.equal({ success: true, name: 'posts' });
      expect(await titles(server)).to.deep.equal(['seed']);
    });
    await withServer(async (server) => {
      expect(await titles(server)).to.deep.equal(['seed']);
    });
  });

  it('starts again from new data when the record is replaced', async () => {
    await withServer(async (server) => {
      await addEndpoint(server, { name: 'posts', data: SEED, collection: true });
      await post(server, { title: 'posted' });
      await server.putJson('/api/endpoint/posts', { data: [{ id: 5, title: 'new seed' }], collection: true });
      expect(await titles(server)).to.deep.equal(['new seed']);
    });
  });

  it('forgets the live data of a deleted endpoint', async () => {
    await withServer(async (server) => {
      await addEndpoint(server, { name: 'posts', data: SEED, collection: true });
      await post(server, { title: 'posted' });
      await server.fetch('/api/endpoint/posts', { method: 'DELETE' });
      await addEndpoint(server, { name: 'posts', data: SEED, collection: true });
      expect(await titles(server)).to.deep.equal(['seed']);
    });
  });

  it('refuses a reset of an endpoint that is not a collection, or of none', async () => {
    await withServer(async (server) => {
      await addEndpoint(server, { name: 'plain', data: 1 });
      const plain = await server.fetch('/api/endpoint/plain/reset', { method: 'POST' });
      expect(plain.status).to.equal(400);
      expect(await plain.json()).to.deep.equal({
        success: false,
        message: "endpoint 'plain' is not a collection",
        field: 'name',
      });
      expect((await server.fetch('/api/endpoint/none/reset', { method: 'POST' })).status).to.equal(404);
    });
  });
});

import { expect } from 'chai';
import type { MockInput } from '../../../src/mocks/record/record.js';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.js';
import { startMockServer, type TestMockServer } from '../server.js';

const input = (name: string, fields: Partial<MockInput> = {}): MockInput => ({ name, statusCode: 200, delay: 0, json: '1', ...fields });

// POST /api/reset, which a suite's beforeEach calls (docs/testing-with-mocks.md), on the real server and data file.
describe('POST /api/reset: back to a clean state', () => {
  let server: TestMockServer;
  let temp: ReturnType<typeof tempDir> | undefined;
  afterEach(async () => {
    await server.close();
    temp?.cleanup();
  });

  const hits = async (name: string) => ((await (await server.fetch(`/api/endpoint/${name}`)).json()) as { hits: number }).hits;
  const reset = async () => {
    const res = await server.fetch('/api/reset', { method: 'POST' });
    expect(res.status).to.equal(200);
    return res.json();
  };

  it('deletes the API\'s endpoints and keeps files\' ones, counted from nothing, their sequence and data from the start', async () => {
    server = await startMockServer();
    await server.store.put(input('made'));
    await server.store.syncSource('file:a.yaml', [
      input('turns', { pick: 'sequence', responses: [{ json: '"first"' }, { json: '"second"' }] }),
      input('posts', { collection: true, json: '[{"id":1}]' }),
    ]);
    expect(await (await server.fetch('/endpoint/turns')).json()).to.equal('first');
    await server.fetch('/endpoint/posts', { method: 'POST', body: '{"id":2}', headers: { 'content-type': 'application/json' } });
    await server.fetch('/endpoint/nothing-here');

    expect(await reset()).to.deep.equal({ success: true, deleted: 1, kept: 2 });
    expect(server.store.list().map((e) => e.record.name)).to.deep.equal(['posts', 'turns']);
    expect(await hits('turns')).to.equal(0);
    expect(((await (await server.fetch('/api/endpoint/turns/requests')).json()) as { requests: unknown[] }).requests).to.deep.equal([]);
    expect(await (await server.fetch('/endpoint/turns')).json(), 'the sequence starts again').to.equal('first');
    expect(await (await server.fetch('/endpoint/posts')).json(), 'the collection is back to its data').to.deep.equal([{ id: 1 }]);
    expect(((await (await server.fetch('/api/unmatched')).json()) as { requests: unknown[] }).requests).to.deep.equal([]);
    expect((await server.fetch('/endpoint/made')).status).to.equal(404);
  });

  it('stays reset in the data file: a restart brings back no hits or log entries from before', async () => {
    temp = tempDir();
    const file = join(temp.dir, 'mocks.sqlite');
    server = await startMockServer({ file });
    await server.store.put(input('kept'));
    await server.fetch('/endpoint/kept');
    await server.fetch('/endpoint/kept');
    // A file endpoint's counters live in the data file; the file itself is synced again at each start.
    await server.store.syncSource('file:b.yaml', [input('fromfile')]);
    await server.fetch('/endpoint/fromfile');
    await reset();
    await server.fetch('/endpoint/fromfile');
    await server.close();

    server = await startMockServer({ file, store: { preload: (store) => store.syncSource('file:b.yaml', [input('fromfile')]).then(() => {}) } });
    expect(server.store.list().map((e) => e.record.name)).to.deep.equal(['fromfile']);
    expect(await hits('fromfile'), 'one request since the reset').to.equal(1);
  });
});

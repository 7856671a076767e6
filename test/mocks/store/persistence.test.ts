import { expect } from 'chai';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.js';
import { openMockStore } from '../../../src/mocks/store/open-store.js';
import { addEndpoint, startMockServer } from '../server.js';

describe('mock storage across restarts', () => {
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    temp = tempDir();
  });
  afterEach(() => temp.cleanup());

  it('serves every added, replaced and kept endpoint again after a restart on the same file', async () => {
    const file = join(temp.dir, 'mocks.sqlite');
    const first = await startMockServer({ file });
    try {
      await addEndpoint(first, { name: 'kept', data: { text: ':colon ✓', n: [1.5, null] }, statusCode: 202, delay: 1.5 });
      await addEndpoint(first, { name: 'headers', data: 1, headers: { 'X-A': 'b' } });
      await first.putJson('/api/endpoint/replaced', { data: 'v1' });
      await first.putJson('/api/endpoint/replaced', { data: 'v2' });
      await addEndpoint(first, { name: 'deleted', data: 1 });
      await first.fetch('/api/endpoint/deleted', { method: 'DELETE' });
    } finally {
      await first.close();
    }
    const second = await startMockServer({ file });
    try {
      const kept = await second.fetch('/endpoint/kept');
      expect(kept.status).to.equal(202);
      expect(await kept.json()).to.deep.equal({ text: ':colon ✓', n: [1.5, null] });
      expect((await second.fetch('/endpoint/headers')).headers.get('x-a')).to.equal('b');
      expect(await (await second.fetch('/endpoint/replaced')).json()).to.equal('v2');
      expect((await second.fetch('/endpoint/deleted')).status).to.equal(404);
      const names = (await (await second.fetch('/api/endpoints')).json()).endpoints.map((e: { name: string }) => e.name);
      expect(names).to.deep.equal(['headers', 'kept', 'replaced']);
      expect(await (await second.fetch('/api/endpoint/kept')).json()).to.deep.include({ delay: 1.5, statusCode: 202 });
    } finally {
      await second.close();
    }
  });

  it('loads 2,000 endpoints at start', async () => {
    const file = join(temp.dir, 'many.sqlite');
    const first = await startMockServer({ file });
    try {
      for (let i = 0; i < 2000; i += 100) {
        await Promise.all(
          Array.from({ length: 100 }, (_, j) => first.store.add({ name: `e${i + j}`, json: String(i + j), statusCode: 200, delay: 0 })),
        );
      }
    } finally {
      await first.close();
    }
    const second = await startMockServer({ file });
    try {
      expect(second.store.list()).to.have.length(2000);
      expect(await (await second.fetch('/endpoint/e1999')).json()).to.equal(1999);
    } finally {
      await second.close();
    }
  });

  it('loads, serves, shows and deletes an endpoint named add kept from before the name was reserved', async () => {
    const file = join(temp.dir, 'mocks.sqlite');
    // The store itself does not validate: this writes what an older version let through the API.
    const old = await openMockStore(file);
    await old.put({ name: 'add', json: '{"old":true}', statusCode: 200, delay: 0 });
    await old.close();
    const server = await startMockServer({ file });
    try {
      expect(await (await server.fetch('/endpoint/add')).json()).to.deep.equal({ old: true });
      expect(await (await server.fetch('/api/endpoint/add')).json()).to.deep.include({ name: 'add', data: { old: true } });
      const names = (await (await server.fetch('/api/endpoints')).json()).endpoints.map((e: { name: string }) => e.name);
      expect(names).to.deep.equal(['add']);
      const deleted = await server.fetch('/api/endpoint/add', { method: 'DELETE' });
      expect(await deleted.json()).to.deep.equal({ success: true, name: 'add' });
      expect((await server.fetch('/endpoint/add')).status).to.equal(404);
    } finally {
      await server.close();
    }
  });
});

import { expect } from 'chai';
import { join } from 'node:path';
import { startServerProcess } from '../../helpers/cli.js';
import { inPool } from '../../helpers/pool.js';
import { tempDir } from '../../helpers/temp.js';

describe('mock server crash safety', function () {
  this.timeout(60_000);

  it('keeps every answered add, with its exact data, after kill -9 mid-stream', async () => {
    const temp = tempDir();
    try {
      const file = join(temp.dir, 'mocks.sqlite');
      const server = await startServerProcess(['serve-mocks', '--port', '0', '--data', file]);
      const answered: { name: string; data: unknown; statusCode: number }[] = [];
      let killed = false;
      // 25 at a time: the stream is still going when the server is killed
      await inPool(500, 25, async (i) => {
        const record = { name: `crash-${i}`, data: { i, text: `données ${i} ✓`, list: [i, i * 2] }, statusCode: 200 + (i % 4) };
        try {
          const res = await fetch(`${server.url}/api/endpoint/add`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(record),
          });
          if (res.status !== 201) return;
          answered.push(record);
          if (answered.length === 150 && !killed) {
            killed = true;
            server.child.kill('SIGKILL');
          }
        } catch {
          // unanswered: the server died under it, nothing was promised
        }
      });
      await server.stop();
      expect(killed).to.equal(true);
      expect(answered.length).to.be.at.least(150).and.below(500);

      const restarted = await startServerProcess(['serve-mocks', '--port', '0', '--data', file]);
      try {
        for (const record of answered) {
          const res = await fetch(`${restarted.url}/endpoint/${record.name}`);
          expect(res.status, record.name).to.equal(record.statusCode);
          expect(await res.json()).to.deep.equal(record.data);
        }
        const added = await fetch(`${restarted.url}/api/endpoint/add`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'after', data: 1 }),
        });
        expect(added.status).to.equal(201);
      } finally {
        await restarted.stop();
      }
    } finally {
      temp.cleanup();
    }
  });
});

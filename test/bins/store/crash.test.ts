import { expect } from 'chai';
import { join } from 'node:path';
import { startBinServer, OPEN } from '../../helpers/bin-server.js';
import { startServerProcess } from '../../helpers/cli.js';
import { inPool } from '../../helpers/pool.js';
import { tempDir } from '../../helpers/temp.js';

type Answered = { bin: string; snapshot: number; html: string };

describe('bin server crash safety', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    temp = tempDir();
  });
  afterEach(() => temp.cleanup());

  it('keeps every answered save, with contiguous snapshots, after kill -9 mid-stream', async () => {
    const file = join(temp.dir, 'bins.sqlite');
    const env = { SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true' };
    const server = await startServerProcess(['serve-bins', '--port', '0', '--data', file], env);
    const bins = Array.from({ length: 20 }, (_, i) => `crash-${i}`);
    const answered: Answered[] = [];
    let killed = false;
    // 25 at a time across the 20 bins: the stream is still going when the server is killed
    await inPool(500, 25, async (i) => {
      const bin = bins[i % bins.length]!;
      const html = `save ${i} of ${bin} ✓`;
      try {
        const res = await fetch(`${server.url}/api/${bin}/save`, { method: 'POST', body: new URLSearchParams({ html }) });
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        const { snapshot } = (await res.json()) as { snapshot: number };
        answered.push({ bin, snapshot, html });
        if (answered.length === 150 && !killed) {
          killed = true;
          server.child.kill('SIGKILL');
        }
      } catch {
        // the server died under this request: it was never answered, so nothing is promised
      }
    });
    await server.stop();
    expect(killed, 'the server was killed mid-stream').to.equal(true);
    expect(answered.length).to.be.at.least(150).and.below(500);

    const restarted = await startServerProcess(['serve-bins', '--port', '0', '--data', file], env);
    try {
      for (const bin of bins) {
        const latest = (await (await fetch(`${restarted.url}/api/${bin}`)).json()) as { snapshot: number };
        const mine = answered.filter((a) => a.bin === bin);
        const highest = Math.max(0, ...mine.map((a) => a.snapshot));
        expect(latest.snapshot, bin).to.be.at.least(highest);
        for (let rev = 1; rev <= latest.snapshot; rev++) {
          expect((await fetch(`${restarted.url}/api/${bin}/${rev}`)).status, `${bin}/${rev}`).to.equal(200);
        }
      }
      for (const save of answered) {
        const found = (await (await fetch(`${restarted.url}/api/${save.bin}/${save.snapshot}`)).json()) as { html: string };
        expect(found.html).to.equal(save.html);
      }
      // and it takes new saves where it left off
      const next = await fetch(`${restarted.url}/api/crash-0/save`, { method: 'POST', body: new URLSearchParams({ html: 'after' }) });
      expect(next.status).to.equal(200);
    } finally {
      await restarted.stop();
    }
  });

  it('answers a store failure during a save with a 500 JSON error and keeps earlier data', async () => {
    const file = join(temp.dir, 'bins.sqlite');
    const server = await startBinServer(OPEN, file);
    const first = (await (await server.postForm('/api/save', { html: 'kept' })).json()) as { url: string };
    await server.store.close(); // the database goes away under the running app
    const res = await server.postForm(`/api/${first.url}/save`, { html: 'lost' });
    expect(res.status).to.equal(500);
    expect(await res.json()).to.deep.equal({ error: 'internal server error' });
    await server.close();

    const reopened = await startBinServer(OPEN, file);
    try {
      const bin = await (await reopened.fetch(`/api/${first.url}`)).json();
      expect(bin).to.include({ html: 'kept', snapshot: 1 });
    } finally {
      await reopened.close();
    }
  });
});

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { loopbackAddresses, openIdleStreams, statuses, type IdleStream } from '../../helpers/idle-streams.js';
import { tempDir } from '../../helpers/temp.js';

const MB = 1024 * 1024;

/** The resident memory of process `pid`, in bytes. */
function rss(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

describe('snippetkit serve-bins under an event-stream memory attack', function () {
  this.timeout(120_000);
  const temp = tempDir();
  let server: ServerProcess;
  let idle: IdleStream[] = [];
  before(async () => {
    server = await startServerProcess(['serve-bins', '--port', '0', '--data', join(temp.dir, 'bins.sqlite')], {
      SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true',
    });
  });
  after(async () => {
    idle.forEach(({ socket }) => socket.destroy());
    await server.stop();
    temp.cleanup();
  });

  /** POSTs console records as an output page does: anonymous, text/plain; answers the bin's connection count. */
  async function sendConsole(bin: string, body: string): Promise<number> {
    const res = await fetch(`${server.url}/api/${bin}/console`, { method: 'POST', body });
    expect(res.status).to.equal(200);
    return ((await res.json()) as { connections: number }).connections;
  }

  it('stays within 100 MB of idle while 200 stalled readers are flooded, and drops them', async () => {
    const pid = server.child.pid!;
    const form = new URLSearchParams({ html: '<p>target</p>' });
    const saved = await fetch(`${server.url}/api/save`, { method: 'POST', body: form });
    const bin = ((await saved.json()) as { url: string }).url;
    // Just under the route's 64 KB body limit.
    const args = ['x'.repeat(62 * 1024)];
    const record = JSON.stringify({ records: [{ snippetkit: 'console', method: 'log', args }] });
    expect(record.length).to.be.within(62 * 1024, 64 * 1024);
    await sendConsole(bin, record); // warm up the route before measuring idle
    const idleRss = rss(pid);

    // 200 readers from ten addresses (20 each: within every per-address cap) that never read again.
    idle = await openIdleStreams(server.url, `/${bin}`, 200, loopbackAddresses(2, 10));
    expect(statuses(idle)).to.deep.equal({ 200: 200 });

    // 500 records of 62 KB, 31 MB per reader, inside the route's 600 a minute; 8 at a time.
    let peak = 0;
    let connections = -1;
    for (let sent = 0; sent < 500; sent += 8) {
      const batch = Array.from({ length: Math.min(8, 500 - sent) }, () => sendConsole(bin, record));
      const answers = await Promise.all(batch);
      connections = answers.at(-1)!;
      peak = Math.max(peak, rss(pid));
      // Fail as soon as the bound is passed, before a leaking server takes the machine with it.
      expect(peak - idleRss, 'RSS growth').to.be.below(100 * MB);
    }
    // Every stalled reader fell more than the buffer cap behind and was dropped.
    expect(connections).to.equal(0);

    idle.forEach(({ socket }) => socket.destroy());
    expect(await sendConsole(bin, '{"records":[]}')).to.equal(0);
    expect(rss(pid) - idleRss, 'RSS growth after').to.be.below(100 * MB);
  });
});

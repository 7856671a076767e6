// Mock server rows: GET of a plain small and a plain 100 KB endpoint against a bare node:http server
// sending the same bytes (server CPU per request and req/s), and 1,000 concurrent requests at delay
// 200 ms (time over the delay). The mock server is bench/mock-server.js, alone in its process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MOCK, burst, load, log, putJson, startBareLike, startChild } from './lib.js';
import { median, paired, versusBare } from './rounds.js';

const SMALL = { id: 1, name: 'Ada Lovelace', roles: ['admin', 'author'], active: true };
const LARGE = Array.from({ length: 1100 }, (_, i) => ({ id: i, name: `user ${i}`, email: `user${i}@example.test` }));
const DELAY = 200;

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'snippetkit-bench-'));
  const mock = await startChild([MOCK], { DATA_FILE: join(dir, 'mocks.sqlite') });
  const bares = [];
  const bareLike = async (url, env) => {
    const bare = await startBareLike(url, dir, env);
    bares.push(bare);
    return bare;
  };
  try {
    await putJson(`${mock.url}/api/endpoint/add`, { name: 'small', data: SMALL });
    await putJson(`${mock.url}/api/endpoint/add`, { name: 'large', data: LARGE });
    await putJson(`${mock.url}/api/endpoint/add`, { name: 'slow', data: SMALL, delay: DELAY });
    const rows = [];
    for (const [title, name, target] of [
      ['mock GET plain endpoint, small', 'small', '≥ 0.8'],
      ['mock GET plain endpoint, 100 KB', 'large', '-'],
    ]) {
      const url = `${mock.url}/endpoint/${name}`;
      const targets = { subject: { url, pid: mock.pid }, base: await bareLike(url) };
      for (const server of Object.values(targets)) await load(server, { duration: 1 }); // warm up
      log(`${title}: measuring`);
      rows.push(versusBare(title, await paired(load, targets), target));
    }
    log('mock 1,000 concurrent at delay 200 ms: measuring');
    const url = `${mock.url}/endpoint/slow`;
    const bare = await bareLike(url, { DELAY: String(DELAY) });
    const runs = await paired((target) => burst(target, 1000), { subject: url, base: bare.url });
    const over = (side, key) => `+${Math.round(median(runs[side].map((run) => run[key])) - DELAY)}`;
    rows.push({
      benchmark: `mock 1,000 at once, delay ${DELAY} ms (over)`,
      'p50 ms': over('subject', 'p50'),
      'p99 ms': over('subject', 'p99'),
      'bare p99 ms': over('base', 'p99'),
    });
    return rows;
  } finally {
    await Promise.all([mock.stop(), ...bares.map((server) => server.stop())]);
    rmSync(dir, { recursive: true, force: true });
  }
}

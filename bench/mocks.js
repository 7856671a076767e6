// Mock server rows: GET of a small and a 100 KB endpoint against a bare node:http server sending
// the same bytes, and 1,000 concurrent requests at delay 200 ms (time over the delay).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BARE, CLI, burst, interleaved, load, putJson, startChild } from './lib.js';

const SMALL = { id: 1, name: 'Ada Lovelace', roles: ['admin', 'author'], active: true };
const LARGE = Array.from({ length: 1100 }, (_, i) => ({ id: i, name: `user ${i}`, email: `user${i}@example.test` }));
const DELAY = 200;

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'snippetkit-bench-'));
  const mock = await startChild([CLI, 'serve-mocks', '--port', '0', '--data', join(dir, 'mocks.sqlite')]);
  const bares = [];
  const bare = async (name, data, env = {}) => {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(data));
    const server = await startChild([BARE], { BODY_FILE: file, ...env });
    bares.push(server);
    return server.url;
  };
  try {
    await putJson(`${mock.url}/api/endpoint/add`, { name: 'small', data: SMALL });
    await putJson(`${mock.url}/api/endpoint/add`, { name: 'large', data: LARGE });
    await putJson(`${mock.url}/api/endpoint/add`, { name: 'slow', data: SMALL, delay: DELAY });
    const rows = [];
    for (const [title, name, data] of [
      ['mock GET small', 'small', SMALL],
      ['mock GET 100 KB', 'large', LARGE],
    ]) {
      const targets = { subject: `${mock.url}/endpoint/${name}`, bare: await bare(name, data) };
      for (const url of Object.values(targets)) await load({ url, duration: 1 }); // warm up
      log(`${title}: measuring`);
      const { subject, bare: base } = await interleaved((url) => load({ url }), targets);
      rows.push(throughputRow(title, subject, base));
    }
    log('mock 1,000 concurrent at delay 200 ms: measuring');
    const targets = { subject: `${mock.url}/endpoint/slow`, bare: await bare('slow', SMALL, { DELAY: String(DELAY) }) };
    const { subject, bare: base } = await interleaved((url) => burst(url, 1000), targets, 'p99');
    rows.push(delayRow(`mock 1,000 at once, delay ${DELAY} ms (over)`, subject, base));
    return rows;
  } finally {
    await Promise.all([mock.stop(), ...bares.map((server) => server.stop())]);
    rmSync(dir, { recursive: true, force: true });
  }
}

export function throughputRow(title, subject, base) {
  return {
    benchmark: title,
    'req/s': Math.round(subject.rps),
    'bare req/s': Math.round(base.rps),
    ratio: (subject.rps / base.rps).toFixed(2),
    'p50 ms': subject.p50,
    'p99 ms': subject.p99,
    'bare p99 ms': base.p99,
  };
}

function delayRow(title, subject, base) {
  return {
    benchmark: title,
    'req/s': '-',
    'bare req/s': '-',
    ratio: '-',
    'p50 ms': `+${subject.p50 - DELAY}`,
    'p99 ms': `+${subject.p99 - DELAY}`,
    'bare p99 ms': `+${base.p99 - DELAY}`,
  };
}

export function log(message) {
  process.stderr.write(`${message}\n`);
}

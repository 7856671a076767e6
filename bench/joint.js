// `snippetkit serve` against the single servers: a mock GET (the endpoint fast path) and a kept bin
// output page, each measured on the joint server and on serve-mocks / serve-bins alone, in paired
// rounds. The ratio is what the joint server's path dispatch costs (issue 26: within 10%, ≥ 0.9).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, load, log, putJson, startChild } from './lib.js';
import { paired, median } from './rounds.js';

const OPEN = { SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true' };
const SMALL = { id: 1, name: 'Ada Lovelace', roles: ['admin', 'author'], active: true };
const PAGE = new URLSearchParams({ html: '<h1>Hello</h1><p>a page</p>', css: 'h1 { color: red }', javascript: 'console.log(1)' });

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'snippetkit-bench-'));
  const servers = [];
  try {
    const joint = await startChild([CLI, 'serve', '--port', '0', '--bin-data', join(dir, 'jb.sqlite'), '--mock-data', join(dir, 'jm.sqlite')], OPEN);
    servers.push(joint);
    const mocks = await startChild([CLI, 'serve-mocks', '--port', '0', '--data', join(dir, 'm.sqlite')]);
    servers.push(mocks);
    const bins = await startChild([CLI, 'serve-bins', '--port', '0', '--data', join(dir, 'b.sqlite')], OPEN);
    servers.push(bins);
    await putJson(`${joint.url}/mocks/api/endpoint/add`, { name: 'small', data: SMALL });
    await putJson(`${mocks.url}/api/endpoint/add`, { name: 'small', data: SMALL });
    for (const url of [joint.url, bins.url]) {
      const res = await fetch(`${url}/api/benchpage/save`, { method: 'POST', body: PAGE });
      if (!res.ok) throw new Error(`save on ${url}: ${res.status}`);
    }
    const rows = [];
    for (const [title, joined, single] of [
      ['serve: mock GET plain endpoint, small', `${joint.url}/endpoint/small`, { url: `${mocks.url}/endpoint/small`, pid: mocks.pid }],
      ['serve: bin GET /:bin/:rev output', `${joint.url}/benchpage/1`, { url: `${bins.url}/benchpage/1`, pid: bins.pid }],
      ['serve: bin GET /api/:bin/:rev', `${joint.url}/api/benchpage/1`, { url: `${bins.url}/api/benchpage/1`, pid: bins.pid }],
    ]) {
      const targets = { subject: { url: joined, pid: joint.pid }, base: single };
      for (const server of Object.values(targets)) await load(server, { duration: 1 }); // warm up
      log(`${title}: measuring`);
      rows.push(versusSingle(title, await paired(load, targets)));
    }
    return rows;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Ratios read as against bare: CPU is single µs / joint µs, req/s is joint / single; 1 = no cost. */
function versusSingle(title, runs) {
  const mid = (side, key) => median(runs[side].map((run) => run[key]));
  const ratio = (f) => {
    const ratios = runs.subject.map((subject, i) => f(subject, runs.base[i]));
    return `${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`;
  };
  return {
    benchmark: title,
    'CPU µs/req': mid('subject', 'cpuUs').toFixed(1),
    'single µs/req': mid('base', 'cpuUs').toFixed(1),
    'CPU ×': ratio((subject, base) => base.cpuUs / subject.cpuUs),
    'req/s': Math.round(mid('subject', 'rps')),
    'single req/s': Math.round(mid('base', 'rps')),
    'req/s ×': ratio((subject, base) => subject.rps / base.rps),
    'p50 ms': mid('subject', 'p50'),
    'p99 ms': mid('subject', 'p99'),
    target: '≥ 0.9',
  };
}

// Bin server rows: API and rendered reads on a store of 100,000 revisions against a bare node:http
// server sending the same bytes; durable saves per second; read latency as the store grows; and
// cold start of both servers (spawn to first answer).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BARE, CLI, interleaved, load, startChild } from './lib.js';
import { fillBins } from './fill-bins.js';
import { log, throughputRow } from './mocks.js';

const OPEN = { SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true' };
/** Store sizes for the growth rows; BENCH_GROWTH=1000,100000 skips the 1 M fill (about a minute). */
const GROWTH = (process.env.BENCH_GROWTH ?? '1000,100000,1000000').split(',').map(Number);
const PER_BIN = 10;

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'snippetkit-bench-'));
  try {
    return [...(await reads(dir)), ...(await saves(dir)), ...(await growth(dir)), ...(await coldStarts(dir))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function reads(dir) {
  const file = join(dir, 'reads.sqlite');
  log('bins: filling 100,000 revisions');
  await fillBins(file, 100_000, PER_BIN);
  const bins = await startChild([CLI, 'serve-bins', '--port', '0', '--data', file], OPEN);
  const bares = [];
  try {
    const rows = [];
    for (const [title, path, type] of [
      ['bin GET /api/:bin (100 k revs)', '/api/fill5000', 'application/json; charset=utf-8'],
      ['bin GET /:bin output (100 k revs)', '/fill5000', 'text/html; charset=utf-8'],
    ]) {
      const res = await fetch(bins.url + path);
      const body = Buffer.from(await res.arrayBuffer());
      const bodyFile = join(dir, `body-${bares.length}`);
      writeFileSync(bodyFile, body);
      const bare = await startChild([BARE], { BODY_FILE: bodyFile, CONTENT_TYPE: type });
      bares.push(bare);
      const targets = { subject: bins.url + path, bare: bare.url };
      for (const url of Object.values(targets)) await load({ url, duration: 1 });
      log(`${title}: measuring`);
      const { subject, bare: base } = await interleaved((url) => load({ url }), targets);
      rows.push(throughputRow(title, subject, base));
    }
    return rows;
  } finally {
    await Promise.all([bins.stop(), ...bares.map((b) => b.stop())]);
  }
}

async function saves(dir) {
  const bins = await startChild([CLI, 'serve-bins', '--port', '0', '--data', join(dir, 'saves.sqlite')], OPEN);
  try {
    const rows = [];
    const body = new URLSearchParams({ html: '<h1>Hello</h1>', css: 'h1 { color: red }', javascript: 'console.log(1)' }).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    for (const [title, path] of [
      ['bin POST /api/save (new bins)', '/api/save'],
      ['bin POST /api/:bin/save (one hot bin)', '/api/hot/save'],
    ]) {
      log(`${title}: measuring`);
      const result = await load({ url: bins.url + path, method: 'POST', body, headers, connections: 50 });
      rows.push({ ...throughputRow(title, result, { rps: NaN, p99: '-' }), 'bare req/s': '-', ratio: '-' });
    }
    return rows;
  } finally {
    await bins.stop();
  }
}

async function growth(dir) {
  const rows = [];
  for (const size of GROWTH) {
    const file = join(dir, `growth-${size}.sqlite`);
    log(`bins: filling ${size} revisions`);
    await fillBins(file, size, PER_BIN);
    // Caches off: every read goes to SQLite, so the row shows how the store itself scales.
    const env = { ...OPEN, SNIPPETKIT_CACHE_REVISIONSMB: '0', SNIPPETKIT_CACHE_HEADS: '0' };
    const bins = await startChild([CLI, 'serve-bins', '--port', '0', '--data', file], env);
    try {
      const count = Math.ceil(size / PER_BIN);
      const setupRequest = (req) => {
        const bin = Math.floor(Math.random() * count);
        const rev = 1 + Math.floor(Math.random() * PER_BIN);
        return { ...req, path: `/api/fill${bin}/${Math.min(rev, size)}` };
      };
      log(`bin read, store of ${size} revisions: measuring`);
      const result = await load({ url: bins.url, requests: [{ setupRequest }], connections: 20 });
      rows.push({
        benchmark: `bin GET random rev, uncached, ${size.toLocaleString('en')} revs`,
        'req/s': Math.round(result.rps),
        'bare req/s': '-',
        ratio: '-',
        'p50 ms': result.p50,
        'p99 ms': result.p99,
        'bare p99 ms': '-',
      });
    } finally {
      await bins.stop();
    }
  }
  return rows;
}

async function coldStarts(dir) {
  const rows = [];
  for (const [command, path] of [
    ['serve-mocks', '/api/endpoints'],
    ['serve-bins', '/status'],
  ]) {
    const times = [];
    for (let i = 0; i < 5; i++) times.push(await coldStart(command, path, join(dir, `cold-${command}-${i}.sqlite`)));
    times.sort((a, b) => a - b);
    rows.push({
      benchmark: `cold start: ${command} to first answer`,
      'req/s': '-',
      'bare req/s': '-',
      ratio: '-',
      'p50 ms': Math.round(times[2]),
      'p99 ms': `max ${Math.round(times[4])}`,
      'bare p99 ms': '-',
    });
  }
  return rows;
}

async function coldStart(command, path, file) {
  const port = await freePort();
  const { spawn } = await import('node:child_process');
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, command, '--port', String(port), '--data', file, '--quiet'], { stdio: 'ignore' });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}${path}`);
        if (res.ok) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 2));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
  }
}

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

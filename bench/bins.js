// Bin server rows: API and rendered reads on a store of 100,000 revisions against a bare node:http
// server sending the same bytes; durable saves per second; read latency as the store grows; and
// cold start of both servers (spawn to first answer).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BARE_SQLITE, BARE_SQLITE_READS, CLI, load, log, startBareLike, startChild } from './lib.js';
import { fillBins } from './fill-bins.js';
import { paired, versusBare } from './rounds.js';

const OPEN = { SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true' };
/** Store sizes for the growth rows; BENCH_GROWTH=1000,100000 skips the 1 M fill (about a minute). */
const GROWTH = (process.env.BENCH_GROWTH ?? '1000,100000,1000000').split(',').map(Number);
const PER_BIN = 10;
/** Parts of this group to run: BENCH_BINS=reads measures the read rows alone. */
const PARTS = (process.env.BENCH_BINS ?? 'reads,saves,growth,cold').split(',');

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'snippetkit-bench-'));
  try {
    const parts = { reads, saves, growth, cold: coldStarts };
    const rows = [];
    for (const [name, part] of Object.entries(parts)) if (PARTS.includes(name)) rows.push(...(await part(dir)));
    return rows;
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
    for (const [title, path, target] of [
      ['bin GET /api/:bin (100 k revs)', '/api/fill5000', '≥ 0.8'],
      ['bin GET /api/:bin/:rev (100 k revs)', '/api/fill5000/3', '≥ 0.8'],
      ['bin GET /:bin output, latest (100 k revs)', '/fill5000', '≥ 0.6'],
      ['bin GET /:bin/:rev output (100 k revs)', '/fill5000/3', '≥ 0.75'],
    ]) {
      const url = bins.url + path;
      const bare = await startBareLike(url, dir);
      bares.push(bare);
      const targets = { subject: { url, pid: bins.pid }, base: bare };
      for (const server of Object.values(targets)) await load(server, { duration: 1 }); // warm up
      log(`${title}: measuring`);
      rows.push(versusBare(title, await paired(load, targets), target));
    }
    return rows;
  } finally {
    await Promise.all([bins.stop(), ...bares.map((b) => b.stop())]);
  }
}

/** Saves against a bare server doing the same SQLite writes (bare-sqlite-saves.js), paired per round. */
async function saves(dir) {
  const rows = [];
  const form = { html: '<h1>Hello</h1>', css: 'h1 { color: red }', javascript: 'console.log(1)' };
  const body = new URLSearchParams(form).toString();
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  for (const [title, path] of [
    ['bin POST /api/save (new bins)', '/api/save'],
    ['bin POST /api/:bin/save (one hot bin)', '/api/hot/save'],
  ]) {
    // Fresh files each row, so both sides write to a store of the same size.
    const run = `${rows.length}`;
    const bins = await startChild([CLI, 'serve-bins', '--port', '0', '--data', join(dir, `saves-${run}.sqlite`)], OPEN);
    const bare = await startChild([BARE_SQLITE], { DATA_FILE: join(dir, `bare-saves-${run}.sqlite`) });
    try {
      const targets = { subject: { url: bins.url + path, pid: bins.pid }, base: { url: bare.url + path, pid: bare.pid } };
      const save = (target) => load(target, { method: 'POST', body, headers, connections: 50 });
      log(`${title}: measuring`);
      rows.push(versusBare(title, await paired(save, targets), '≥ 0.8'));
    } finally {
      await Promise.all([bins.stop(), bare.stop()]);
    }
  }
  return rows;
}

/** The cells of a row with no baseline. */
function single(result) {
  const { cpuUs, rps, p50, p99 } = result;
  return { 'CPU µs/req': cpuUs.toFixed(1), 'req/s': Math.round(rps), 'p50 ms': p50, 'p99 ms': p99 };
}

async function growth(dir) {
  const rows = [];
  for (const size of GROWTH) {
    const file = join(dir, `growth-${size}.sqlite`);
    log(`bins: filling ${size} revisions`);
    await fillBins(file, size, PER_BIN);
    // Caches off: every read goes to SQLite, so the row shows how the store itself scales.
    const env = { ...OPEN, SNIPPETKIT_CACHE_REVISIONSMB: '0', SNIPPETKIT_CACHE_HEADS: '0' };
    // The fill writes Keyv records, as an earlier release did: this first start moves them.
    const started = performance.now();
    const bins = await startChild([CLI, 'serve-bins', '--port', '0', '--data', file], env);
    const moved = performance.now() - started;
    // The same file read by a bare server with one prepared statement, side by side (WAL: readers share it).
    const bare = await startChild([BARE_SQLITE_READS], { DATA_FILE: file });
    try {
      const count = Math.ceil(size / PER_BIN);
      const setupRequest = (req) => {
        const bin = Math.floor(Math.random() * count);
        const rev = 1 + Math.floor(Math.random() * PER_BIN);
        return { ...req, path: `/api/fill${bin}/${Math.min(rev, size)}` };
      };
      log(`bin read, store of ${size} revisions: measuring`);
      const targets = { subject: { url: bins.url, pid: bins.pid }, base: { url: bare.url, pid: bare.pid } };
      const read = (target) => load(target, { requests: [{ setupRequest }], connections: 20 });
      const benchmark = `bin GET random rev, uncached, ${size.toLocaleString('en')} revs`;
      rows.push(versusBare(benchmark, await paired(read, targets), '≥ 0.5'));
    } finally {
      await Promise.all([bins.stop(), bare.stop()]);
    }
    if (size !== Math.max(...GROWTH)) continue;
    const label = size.toLocaleString('en');
    rows.push({ benchmark: `first start on ${label} revs in Keyv records (moved)`, 'p50 ms': Math.round(moved) });
    // Later starts on the moved store: nothing may scan it.
    const times = [];
    for (let i = 0; i < 5; i++) times.push(await coldStart('serve-bins', '/status', file));
    rows.push({ benchmark: `cold start: serve-bins on ${label} revs`, ...spread(times) });
  }
  return rows;
}

/** p50 and max of five start times. */
function spread(times) {
  times.sort((a, b) => a - b);
  return { 'p50 ms': Math.round(times[2]), 'p99 ms': `max ${Math.round(times[4])}` };
}

async function coldStarts(dir) {
  const rows = [];
  for (const [command, path] of [
    ['serve-mocks', '/api/endpoints'],
    ['serve-bins', '/status'],
  ]) {
    const times = [];
    for (let i = 0; i < 5; i++) times.push(await coldStart(command, path, join(dir, `cold-${command}-${i}.sqlite`)));
    rows.push({ benchmark: `cold start: ${command} to first answer`, ...spread(times) });
  }
  return rows;
}

async function coldStart(command, path, file) {
  const port = await freePort();
  const { spawn } = await import('node:child_process');
  const started = performance.now();
  const args = [CLI, command, '--port', String(port), '--data', file, '--quiet'];
  const child = spawn(process.execPath, args, { stdio: 'ignore' });
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

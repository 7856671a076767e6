// Shared bench helpers: servers in child processes, autocannon and CPU readings in this one.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, get, request } from 'node:http';
import autocannon from 'autocannon';

export const CLI = fileURLToPath(new URL('../bin/snippetkit.js', import.meta.url));
export const BARE = fileURLToPath(new URL('./bare-server.js', import.meta.url));
export const BARE_SQLITE = fileURLToPath(new URL('./bare-sqlite-saves.js', import.meta.url));
export const BARE_SQLITE_READS = fileURLToPath(new URL('./bare-sqlite-reads.js', import.meta.url));
export const MOCK = fileURLToPath(new URL('./mock-server.js', import.meta.url));

/** Seconds per measured run; BENCH_DURATION=1 for a quick look. */
export const DURATION = Number(process.env.BENCH_DURATION ?? 4);
/** Clock ticks per second, the unit of utime and stime in /proc/<pid>/stat. */
export const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/**
 * Starts `node ...args` and resolves once it prints a http:// URL on stdout, with its `pid`.
 * `stop()` sends SIGTERM and waits for the exit.
 */
export function startChild(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const exited = new Promise((r) => child.on('exit', r));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => {
      stdout += d;
      const url = /http:\/\/[\d.]+:\d+/.exec(stdout)?.[0];
      if (url) {
        resolve({
          url,
          pid: child.pid,
          stop: () => {
            if (child.exitCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    exited.then((code) => reject(new Error(`${args.join(' ')} exited (${code}): ${stderr}`)));
  });
}

/**
 * A bare node:http server (its own process) answering with the status, headers and body bytes that
 * `url` answers with now, so the two differ only in the server code. `env` adds e.g. DELAY.
 */
export async function startBareLike(url, dir, env = {}) {
  const { status, headers, body } = await getRaw(url);
  const file = join(dir, `bare-body-${process.hrtime.bigint()}`);
  writeFileSync(file, body);
  // Node writes these itself, on both servers.
  for (const name of ['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']) delete headers[name];
  return startChild([BARE], { BODY_FILE: file, STATUS: String(status), HEADERS: JSON.stringify(headers), ...env });
}

/** One GET as autocannon sends it (no Accept-Encoding), with the body's raw bytes. */
function getRaw(url) {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** Seconds of CPU (user + system, all threads) process `pid` has used so far. */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces: utime is the 14th field.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/**
 * One autocannon run against `target.url`, served by process `target.pid`; returns req/s, latency
 * percentiles in ms, and the server's CPU time per request in µs over the run.
 */
export async function load(target, options = {}) {
  const before = cpuSeconds(target.pid);
  const result = await autocannon({ url: target.url, connections: 100, duration: DURATION, ...options });
  const cpu = cpuSeconds(target.pid) - before;
  const failed = result.errors + result.timeouts + result.non2xx;
  if (failed > 0) throw new Error(`${target.url}: ${failed} failed requests`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    cpuUs: (cpu * 1e6) / result.requests.total,
  };
}

/**
 * `count` requests at once, each on its own already-open keep-alive connection, so the figures are
 * the server's (its timers, its event loop) rather than connection set-up in the load generator.
 * Returns p50/p99 of the per-request time in ms.
 */
export async function burst(url, count) {
  const agent = new Agent({ keepAlive: true, maxSockets: count });
  const once = () =>
    new Promise((resolve, reject) => {
      const start = performance.now();
      request(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) resolve(performance.now() - start);
          else reject(new Error(`${url}: ${res.statusCode}`));
        });
      })
        .on('error', reject)
        .end();
    });
  try {
    await Promise.all(Array.from({ length: count }, once)); // opens the connections
    const times = (await Promise.all(Array.from({ length: count }, once))).sort((a, b) => a - b);
    const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
    return { p50: at(0.5), p99: at(0.99) };
  } finally {
    agent.destroy();
  }
}

/** PUT JSON to a running server; throws unless the answer is 2xx. */
export async function putJson(url, body) {
  const headers = { 'content-type': 'application/json' };
  const res = await fetch(url, { method: 'PUT', headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`PUT ${url}: ${res.status} ${await res.text()}`);
}

/** Prints rows as an aligned table: every column any row has, in order of first use; '-' where a row has none. */
export function printTable(rows) {
  if (rows.length === 0) return;
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cell = (row, key) => String(row[key] ?? '-');
  const widths = keys.map((key) => Math.max(key.length, ...rows.map((row) => cell(row, key).length)));
  const line = (cells) => cells.map((text, i) => text.padEnd(widths[i])).join('  ');
  console.log(line(keys));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(keys.map((key) => cell(row, key))));
}

export function log(message) {
  process.stderr.write(`${message}\n`);
}

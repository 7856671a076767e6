// Shared bench helpers: servers in child processes, autocannon in this one, interleaved rounds.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI = fileURLToPath(new URL('../bin/snippetkit.js', import.meta.url));
export const BARE = fileURLToPath(new URL('./bare-server.js', import.meta.url));

/** Seconds per measured run; BENCH_DURATION=1 for a quick look. */
export const DURATION = Number(process.env.BENCH_DURATION ?? 4);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/**
 * Starts `node ...args` and resolves once it prints a http:// URL on stdout.
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

/** One autocannon run; returns req/s and latency percentiles in ms. */
export async function load(options) {
  const result = await autocannon({ connections: 100, duration: DURATION, ...options });
  const failed = result.errors + result.timeouts + result.non2xx;
  if (failed > 0) throw new Error(`${options.url}: ${failed} failed requests`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
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
    const at = (q) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]);
    return { rps: 0, p50: at(0.5), p99: at(0.99), requests: count };
  } finally {
    agent.destroy();
  }
}

/**
 * Runs `measure(target)` for the server under test and the bare baseline, alternating which goes
 * first each round so drift in machine load hits both, and keeps the median round of each
 * (by `key`: req/s for throughput, p99 for latency rows).
 */
export async function interleaved(measure, targets, key = 'rps', rounds = ROUNDS) {
  const runs = { subject: [], bare: [] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['subject', 'bare'] : ['bare', 'subject'];
    for (const which of order) runs[which].push(await measure(targets[which]));
  }
  return { subject: median(runs.subject, key), bare: median(runs.bare, key) };
}

function median(runs, key) {
  const sorted = [...runs].sort((a, b) => a[key] - b[key]);
  return sorted[Math.floor(sorted.length / 2)];
}

/** PUT JSON to a running server; throws unless the answer is 2xx. */
export async function putJson(url, body) {
  const headers = { 'content-type': 'application/json' };
  const res = await fetch(url, { method: 'PUT', headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`PUT ${url}: ${res.status} ${await res.text()}`);
}

/** Prints rows as an aligned table. */
export function printTable(rows) {
  const widths = Object.keys(rows[0]).map((key) => Math.max(key.length, ...rows.map((row) => String(row[key]).length)));
  const line = (cells) => cells.map((cell, i) => String(cell).padEnd(widths[i])).join('  ');
  console.log(line(Object.keys(rows[0])));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(Object.values(row)));
}

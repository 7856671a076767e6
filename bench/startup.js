// Start-up rows (issue 24): each server from spawn to its first answer, against a bare node:http
// server spawned and asked the same way, in interleaved rounds; and a client command from spawn to
// exit, against `node -e` making the same request with node:http. BENCH_STARTS rounds (default 15), medians.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BARE, CLI, log, startChild } from './lib.js';
import { median } from './rounds.js';

const ROUNDS = Number(process.env.BENCH_STARTS ?? 15);

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'snippetkit-bench-start-'));
  try {
    const body = join(dir, 'body');
    writeFileSync(body, '[]');
    const times = { bare: [], mocks: [], bins: [], node: [], client: [] };
    const mocks = await startChild([CLI, 'serve-mocks', '--port', '0', '--data', join(dir, 'warm.sqlite')]);
    try {
      for (let i = 0; i < ROUNDS; i++) {
        times.bare.push(await firstAnswer([BARE], '/', { BODY_FILE: body }));
        times.mocks.push(await firstAnswer([CLI, 'serve-mocks', '--data', join(dir, `m${i}.sqlite`)], '/api/endpoints'));
        times.bins.push(await firstAnswer([CLI, 'serve-bins', '--data', join(dir, `b${i}.sqlite`)], '/status'));
        // The request as the client makes it (node:http, the answer read whole); fetch would add undici's start.
        times.node.push(await toExit(['-e', `require('node:http').get(${JSON.stringify(`${mocks.url}/api/endpoints`)}, (r) => r.resume())`]));
        times.client.push(await toExit([CLI, 'mock', 'list', '--server', mocks.url]));
      }
    } finally {
      await mocks.stop();
    }
    log(`start-up: ${ROUNDS} rounds`);
    const bare = median(times.bare);
    const node = median(times.node);
    const row = (benchmark, ms, base, baseName) => ({
      benchmark,
      'p50 ms': ms.toFixed(1),
      [`${baseName} ms`]: base.toFixed(1),
      '×': (ms / base).toFixed(2),
      target: '≤ 2',
    });
    return [
      row('start: serve-mocks, spawn to first answer', median(times.mocks), bare, 'bare'),
      row('start: serve-bins, spawn to first answer', median(times.bins), bare, 'bare'),
      row('client: mock list, spawn to exit', median(times.client), node, 'node -e http.get'),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Milliseconds from spawning `node args` on a free port to its first 2xx answer on `path`, asked as soon
 * as it prints its URL (each server prints one line when it listens, the bare one too). Polling the port
 * instead took a core's fifth from the starting process on this 2-core machine, more the longer it took.
 */
async function firstAnswer(args, path, env = {}) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...args, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, ...env, PORT: String(port) },
  });
  try {
    await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes(`:${port}`)) resolve();
      });
      child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before listening`)));
    });
    const res = await fetch(`http://127.0.0.1:${port}${path}`);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${args.join(' ')}: ${path} answered ${res.status}`);
    return performance.now() - started;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.on('exit', r) : r()));
  }
}

/** Milliseconds from spawning `node args` to its exit (which must be 0). */
function toExit(args) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: 'ignore' });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${args.join(' ')}: exit ${code}`)))),
  );
}

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

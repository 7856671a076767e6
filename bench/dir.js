// serve-mocks --dir rows: 10,000 endpoint files (half JSON, half YAML, in 100 folders) from spawn to
// listening and to the first answer, and one changed file from write to served, with the server CPU
// that change cost (re-reading every file would cost seconds: only the changed one is read).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, cpuSeconds, log, startChild } from './lib.js';
import { median } from './rounds.js';

const FILES = 10_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6) > 3 ? 5 : 3;

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'snippetkit-bench-'));
  const mocks = join(dir, 'mocks');
  try {
    log(`dir: writing ${FILES} endpoint files`);
    for (let i = 0; i < FILES; i++) writeRecord(mocks, i, i);
    const runs = [];
    for (let round = 0; round < ROUNDS; round++) {
      log(`dir: round ${round + 1} of ${ROUNDS}`);
      runs.push(await measure(dir, mocks, round));
    }
    const row = (benchmark, key, digits = 0) => {
      const values = runs.map((one) => one[key]).sort((a, b) => a - b);
      return { benchmark, 'p50 ms': median(values).toFixed(digits), 'p99 ms': `max ${values.at(-1).toFixed(digits)}` };
    };
    return [
      { ...row(`--dir ${FILES} files: spawn to listening`, 'listening'), target: '< 5000' },
      { ...row(`--dir ${FILES} files: spawn to first answer`, 'answered'), target: '< 5000' },
      { ...row('--dir one file changed: write to served', 'changed'), target: '< 300' },
      row('--dir one file changed: server CPU ms', 'cpu', 1),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(dir, mocks, round) {
  const started = performance.now();
  const args = [CLI, 'serve-mocks', '--port', '0', '--dir', mocks, '--data', join(dir, `round-${round}.sqlite`)];
  const server = await startChild(args);
  const listening = performance.now() - started;
  try {
    const first = await fetch(`${server.url}/endpoint/d50/e5000`);
    if (first.status !== 200) throw new Error(`first answer: ${first.status}`);
    await first.text();
    const answered = performance.now() - started;
    // Idle first: the CPU counted below is the change's alone.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const cpuBefore = cpuSeconds(server.pid);
    const written = performance.now();
    const value = FILES + round;
    writeRecord(mocks, 1234, value);
    const wanted = JSON.stringify({ id: value, name: `user ${value}` });
    while ((await (await fetch(`${server.url}/endpoint/d12/e1234`)).text()) !== wanted) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const changed = performance.now() - written;
    const cpu = (cpuSeconds(server.pid) - cpuBefore) * 1000;
    return { listening, answered, changed, cpu };
  } finally {
    await server.stop();
  }
}

/** File `i` in folder d<i/100>, JSON for even i and YAML for odd, answering `value`. */
function writeRecord(mocks, i, value) {
  const folder = join(mocks, `d${Math.floor(i / 100)}`);
  mkdirSync(folder, { recursive: true });
  const data = { id: value, name: `user ${value}` };
  if (i % 2 === 0) writeFileSync(join(folder, `e${i}.json`), `${JSON.stringify({ statusCode: 200, data }, null, 2)}\n`);
  else writeFileSync(join(folder, `e${i}.yaml`), `statusCode: 200\ndata:\n  id: ${value}\n  name: user ${value}\n`);
}

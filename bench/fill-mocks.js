// Fills a mocks SQLite file with `endpoints` endpoints, each with `entries` saved log entries, through
// the built store and the engine's save the server's journal uses (run `npm run build` first),
// then times `serve-mocks` starting on it: the start-up cost of loading saved request logs.
// Usage: node bench/fill-mocks.js FILE [ENDPOINTS ENTRIES]   (without counts: only time the start-up)
import { spawn } from 'node:child_process';
import { openMockStore } from '../dist/mocks/store/open-store.js';
import { openSqliteMocks } from '../dist/mocks/engines/sqlite.js';
import { CLI } from './lib.js';

/** A webhook-sized request as the log keeps it (about 700 bytes of JSON). */
function entry(name, n) {
  return {
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    method: 'POST',
    url: `/endpoint/${name}?attempt=${n}`,
    ip: '127.0.0.1',
    headers: {
      host: 'localhost:16540',
      'user-agent': 'curl/8.5.0',
      accept: '*/*',
      'content-type': 'application/json',
      'x-signature': `sha256=${'ab'.repeat(32)}`,
      'content-length': '180',
    },
    body: JSON.stringify({ event: 'push', n, repository: { id: 42, name: 'snippetkit', owner: 'someone' }, ok: true }),
    bodyTruncated: false,
  };
}

export async function fillMocks(file, endpoints, entries) {
  const store = await openMockStore(file);
  for (let i = 0; i < endpoints; i += 500) {
    const names = Array.from({ length: Math.min(500, endpoints - i) }, (_, j) => `e${i + j}`);
    await Promise.all(names.map((name) => store.put({ name, json: '{"ok":true}', statusCode: 200, delay: 0 })));
  }
  await store.close();
  const engine = await openSqliteMocks(file);
  try {
    for (let i = 0; i < endpoints; i += 100) {
      const batch = [];
      for (let e = i; e < Math.min(i + 100, endpoints); e++) {
        const name = `e${e}`;
        const logged = Array.from({ length: entries }, (_, n) => entry(name, n + 1));
        const lastCall = logged.at(-1)?.time ?? null;
        batch.push({ name, hits: entries, lastCall, sequence: 0, entries: logged, skipped: 0, keep: entries });
      }
      await engine.stats.save(batch);
    }
  } finally {
    await engine.close();
  }
}

/** Milliseconds from spawning `serve-mocks` on `file` to its start-up line, and its RSS then (MB). */
export function timeStart(file) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, 'serve-mocks', '--port', '0', '--data', file], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    const failed = (code) => reject(new Error(`serve-mocks exited (${code})`));
    child.once('exit', failed);
    child.stdout.once('data', () => {
      const ms = Date.now() - started;
      child.off('exit', failed);
      const status = spawn('ps', ['-o', 'rss=', '-p', String(child.pid)]);
      let rss = '';
      status.stdout.on('data', (d) => (rss += d));
      status.on('close', () => {
        child.kill('SIGTERM');
        child.once('exit', () => resolve({ ms, rssMB: Math.round(Number(rss) / 1024) }));
      });
    });
  });
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const [file, endpoints, entries] = process.argv.slice(2);
  if (endpoints) {
    const started = Date.now();
    await fillMocks(file, Number(endpoints), Number(entries));
    console.log(`${endpoints} endpoints x ${entries} entries written to ${file} in ${Date.now() - started} ms`);
  }
  for (let run = 1; run <= 3; run++) console.log(`start-up ${run}:`, await timeStart(file));
}

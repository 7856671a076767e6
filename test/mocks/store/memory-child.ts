// A mock server in its own process, started with --expose-gc, so a test can force a GC and read the
// heap this server alone keeps (memory-budget.test.ts). Argument: the budgets, as JSON.
import { join } from 'node:path';
import { createMockHandler } from '../../../src/mocks/app.js';
import { openSqliteMocks } from '../../../src/mocks/engines/sqlite.js';
import { createMockStore, DEFAULT_STORE_OPTIONS } from '../../../src/mocks/store/store.js';
import { listen } from '../../../src/server/listen.js';
import { MemoryBudget, type MemoryLimits } from '../../../src/gates/memory-budget.js';
import { tempDir } from '../../helpers/temp.js';

export type ChildReport = {
  /** heapUsed plus arrayBuffers (record bodies are Buffers outside the heap), after forced GCs, settled (settledBytes). */
  bytes: number;
  accounts: { kind: string; used: number; limit: number }[];
  /** Requests each endpoint counted. */
  hits: Record<string, number>;
};

const limits = JSON.parse(process.argv[2]!) as MemoryLimits;
const temp = tempDir();
const memory = new MemoryBudget(limits);
const engine = await openSqliteMocks(join(temp.dir, 'mocks.sqlite'));
// The request logs' saves under way: each holds its batch as JSON text besides the entries (uncharged, and
// let go when it ends), so the heap is read between saves (quiet()). A save begun while the heap settled
// kept it from looking settled lower: a test read 3.5 MB more than the server keeps, about one run in
// four of this file here and once in CI.
const saves = new Set<Promise<void>>();
const save = engine.stats.save.bind(engine.stats);
engine.stats.save = (batch) => {
  const saving = save(batch);
  saves.add(saving);
  void saving.catch(() => {}).finally(() => saves.delete(saving));
  return saving;
};
const store = await createMockStore(engine, { ...DEFAULT_STORE_OPTIONS, memory, maxEndpoints: 1_000_000, flushMs: 50 });
const running = await listen(createMockHandler({ store, config: { maxHangs: 100_000 } }), 0, '127.0.0.1');

const usedBytes = () => {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

const heldBytes = () => {
  for (let i = 0; i < 4; i++) global.gc!();
  return usedBytes();
};

/**
 * Resolves at a turn of the event loop with no save under way. A save's promise settles inside SQLite's
 * callback, and the callback (whose scope holds the batch) is let go only after it returns: hence a turn
 * after each, and a save the journal's timer began meanwhile is waited for as well.
 */
async function quiet(): Promise<void> {
  for (;;) {
    await new Promise((resolve) => setImmediate(resolve));
    if (saves.size === 0) return;
    await Promise.allSettled([...saves]);
  }
}

/**
 * The heap once what the server has let go of is gone. A socket it destroyed is freed only when its
 * handle has closed, a turn or two of the event loop later: measured before that, 300 of them showed
 * 2.5 MB more, now and then past a test's bound. So it measures again after each turn (a timer runs
 * after the loop's close callbacks) until two turns in a row free nothing more.
 */
async function settledBytes(): Promise<number> {
  const SAME = 64 * 1024;
  let bytes = heldBytes();
  for (let calm = 0, turns = 0; calm < 2 && turns < 50; turns++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    // A save the journal's timer began in that turn would hide what the turn freed: its end is awaited.
    await quiet();
    const now = heldBytes();
    calm = now > bytes - SAME ? calm + 1 : 0;
    bytes = Math.min(bytes, now);
  }
  return bytes;
}

const report = async (gc: boolean): Promise<ChildReport> => {
  if (gc) await quiet();
  const bytes = gc ? await settledBytes() : usedBytes();
  const accounts = memory.accounts().map(({ kind, used, limit }) => ({ kind, used, limit }));
  const hits = Object.fromEntries(store.list().map((endpoint) => [endpoint.record.name, endpoint.stats.hits]));
  return { bytes, accounts, hits };
};

/**
 * The connections that hold a request: idle keep-alive ones are closed first. A socket the server has
 * ended stays counted until it is gone.
 */
const busyConnections = () => {
  running.server.closeIdleConnections();
  running.server.getConnections((err, count) => process.send!({ connections: err ? -1 : count }));
};

process.on('message', (message: string) => {
  if (message === 'report' || message === 'count') void report(message === 'report').then((reply) => process.send!(reply));
  else if (message === 'connections') busyConnections();
  else if (message === 'stop') {
    void running.close(0).then(async () => {
      await store.close();
      temp.cleanup();
      process.exit(0);
    });
  }
});
process.send!({ url: running.url });

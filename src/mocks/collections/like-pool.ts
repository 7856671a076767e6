/**
 * The worker threads that run `_like` matching (like-worker.ts), shared by every app in the process
 * as the machine's cores are. At most MAX_WORKERS jobs run at once, the others wait their turn
 * (not charged to their budget); a job still running past its request's budget has its worker
 * terminated, which stops even a match that is under way, and a new worker takes its place.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { HttpError } from '../../http/errors.js';
import { CpuBudgetExceeded, type CpuBudget } from '../../gates/cpu-budget.js';
import { packageFile } from '../../server/package-files.js';

/** One `_like` key's patterns (an item passes with any of them) and each item's text at its path. */
export type LikeTask = { key: string; patterns: string[]; texts: (string | null)[] };
/** What a worker is sent: items pass when every task passes them. */
export type LikeJob = { id: number; limitMs: number; count: number; tasks: LikeTask[] };
/** `passed[i]` is 1 for an item that passes; or a pattern refused (a 400), or the budget spent on `over`. */
export type LikeReply =
  | { id: number; passed: Uint8Array }
  | { id: number; refused: { key: string; message: string } }
  | { id: number; over: string };

/** Jobs running at once: one core is left to the event loop, and two at most are used. */
const MAX_WORKERS = Math.min(2, Math.max(1, availableParallelism() - 1));
/** Jobs waiting at once; past it a `_like` query is a 503 at once. */
export const MAX_WAITING = 200;
/** An idle worker goes after this long (a new one took 0.5 to 0.9 s to start on a loaded 2-core machine). */
const IDLE_MS = 30_000;
/** Past the budget, the worker's own answer ("over") has this long to arrive before it is killed. */
const GRACE_MS = 20;

/** Always the built worker (tests run the sources; `npm test` builds first), as the compile children are. */
const WORKER = packageFile('dist/mocks/collections/like-worker.js');

type Waiting = { job: Omit<LikeJob, 'id' | 'limitMs'>; budget: CpuBudget; key: string; done: Done };
type Done = { resolve: (reply: LikeReply) => void; reject: (err: Error) => void };
/** A worker; `ready` says whether it loaded (its first message) or ended first. */
type Slot = { worker: Worker; ready: Promise<boolean>; idle?: NodeJS.Timeout };

const idle: Slot[] = [];
const queue: Waiting[] = [];
let running = 0;
let nextId = 1;

/**
 * Runs `job` on a worker under what is left of `budget`; rejects with CpuBudgetExceeded naming
 * `key` (the first `_like` key) past it, or with a 503 HttpError when too many wait.
 */
export function runLikeJob(job: Waiting['job'], budget: CpuBudget, key: string): Promise<LikeReply> {
  return new Promise((resolve, reject) => {
    if (queue.length >= MAX_WAITING) {
      return reject(new HttpError(503, 'too many _like queries are waiting; try again shortly', key));
    }
    queue.push({ job, budget, key, done: { resolve, reject } });
    next();
  });
}

function next(): void {
  while (running < MAX_WORKERS && queue.length > 0) start(queue.shift()!);
}

function start(waiting: Waiting): void {
  running++;
  const slot = idle.pop() ?? spawn();
  clearTimeout(slot.idle);
  slot.worker.ref();
  // A new worker loads RE2 first (tens of milliseconds): not the request's time.
  void slot.ready.then((ready) => {
    if (ready) return dispatch(slot, waiting);
    running--;
    waiting.done.reject(stopped(waiting.key));
    next();
  });
}

function dispatch(slot: Slot, { job, budget, key, done }: Waiting): void {
  const id = nextId++;
  let settled = false;
  const finish = (kept: boolean) => {
    settled = true;
    budget.pause();
    clearTimeout(timer);
    slot.worker.off('message', onMessage);
    slot.worker.off('exit', onExit);
    running--;
    if (kept) keep(slot);
    else void slot.worker.terminate();
    next();
  };
  const onMessage = (reply: LikeReply) => {
    if (reply.id !== id || settled) return;
    finish(true);
    done.resolve(reply);
  };
  const onExit = () => {
    if (settled) return;
    finish(false);
    done.reject(stopped(key));
  };
  budget.resume();
  const timer = setTimeout(() => {
    if (settled) return;
    finish(false);
    done.reject(new CpuBudgetExceeded(budget.limitMs, key));
  }, budget.remainingMs() + GRACE_MS);
  slot.worker.on('message', onMessage);
  slot.worker.on('exit', onExit);
  slot.worker.postMessage({ ...job, id, limitMs: budget.remainingMs() } satisfies LikeJob);
}

/** A worker that ended without answering: out of memory, most likely (resourceLimits), so the request's doing. */
function stopped(key: string): HttpError {
  return new HttpError(503, `${key}: the matching stopped before it answered (out of memory?)`, key);
}

function spawn(): Slot {
  // Its stdout and stderr are not the server's: nothing a pattern does is printed.
  // No execArgv of ours (a loader such as tsx under tests): the built worker needs none.
  const limits = { maxOldGenerationSizeMb: 128 };
  const worker = new Worker(WORKER, { stdout: true, stderr: true, execArgv: [], resourceLimits: limits });
  worker.stdout.resume();
  worker.stderr.resume();
  // An error inside the worker ends it: 'exit' settles the job.
  worker.on('error', () => {});
  const ready = new Promise<boolean>((resolve) => {
    worker.once('message', () => resolve(true));
    worker.once('exit', () => resolve(false));
  });
  return { worker, ready };
}

/** Back to the idle list, not holding the process open, and ended after IDLE_MS unused. */
function keep(slot: Slot): void {
  slot.worker.unref();
  slot.idle = setTimeout(() => {
    const at = idle.indexOf(slot);
    if (at !== -1) idle.splice(at, 1);
    void slot.worker.terminate();
  }, IDLE_MS);
  slot.idle.unref();
  idle.push(slot);
}

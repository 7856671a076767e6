import type { ChildProcess } from 'node:child_process';
import type { Compiled, CompileResult } from '../../shared/processors.js';
import { forkCompileChild, residentBytes } from './child.js';
import type { CompileReply, WorkerMessage } from './worker.js';
import { createFairQueue } from './fair-queue.js';

export type PoolOptions = {
  /** Child processes compiling at once. */
  size: number;
  /**
   * A compile taking longer is stopped: by the child itself where it can (Pug's template code), else by
   * killing and replacing the child, which is slow (Node and the compilers load again), so only a grace later.
   */
  timeoutMs: number;
  /** Compiles waiting for a child, all clients together; beyond this they are refused at once. */
  maxQueue: number;
  /** Compiles one client may have waiting; its next ones are refused, nobody else's. */
  maxQueuePerClient: number;
  /** A child's resident memory cap, in MB: over it, the child is killed (its compile fails). */
  maxMemoryMb: number;
};

export type CompilePool = {
  /** `client` (an address) gets its fair share: its compiles wait in its own line, served round-robin. */
  run(processor: Compiled, source: string, client?: string): Promise<CompileResult>;
  /** Kills the children; waiting compiles fail. */
  close(): void;
};

type Job = { processor: Compiled; source: string; resolve(result: CompileResult): void };
/**
 * starting → idle → (loading: a compiler it has not used yet) → busy (a job) → checking (answered, awaiting
 * the pong that says it is idle) → idle.
 */
type Worker = {
  child: ChildProcess;
  state: 'starting' | 'idle' | 'loading' | 'busy' | 'checking';
  retired: boolean;
  /** The processors whose compilers the child has loaded. */
  loaded: Set<Compiled>;
  job?: Job & { id: number };
  /** The id of the last job, sent as the ping after its answer. */
  pinged?: number;
  /** The load's deadline while loading, the time limit while busy, the pong's deadline while checking. */
  timer?: NodeJS.Timeout;
  /** Memory checks while busy or checking. */
  watch?: NodeJS.Timeout;
};

/**
 * How long a child may take to load a compiler and run it once: TypeScript or Sass take about 0.5 s on
 * an idle machine, several seconds with every core busy. One that cannot is stuck, and is replaced.
 */
const LOAD_MS = 30_000;
/** How long an idle child may take to answer a ping; one that cannot is still running something. */
const PONG_MS = 1000;
/** How much longer than the time limit a child has to stop a compile itself before it is killed. */
const graceMs = (timeoutMs: number): number => Math.max(250, timeoutMs / 2);
/** How often a working child's memory is read: a typed-array fill grows a few hundred MB a second. */
const WATCH_MS = 50;

const fail = (message: string): CompileResult => ({ ok: false, error: { message } });

const transient = new WeakSet<CompileResult>();
/** A failure that says nothing about the source (a time limit, a crash, busy, shutting down): not to be cached. */
export function isTransient(result: CompileResult): boolean {
  return transient.has(result);
}
function failNow(message: string): CompileResult {
  return transientCopy(fail(message));
}
function transientCopy(result: CompileResult): CompileResult {
  const copy = { ...result };
  transient.add(copy);
  return copy;
}

/**
 * A few compile children, started on first use. A child is reused only when it answers a ping after
 * its compile, and stays under the memory cap; otherwise it is killed and replaced.
 */
export function createCompilePool(options: PoolOptions): CompilePool {
  const { size, timeoutMs, maxQueue, maxQueuePerClient } = options;
  const maxBytes = options.maxMemoryMb * 1024 * 1024;
  const workers: Worker[] = [];
  const queue = createFairQueue<Job>();
  let nextId = 1;
  let closed = false;

  function spawn(): void {
    const child = forkCompileChild();
    const worker: Worker = { child, state: 'starting', retired: false, loaded: new Set() };
    child.on('message', (reply: CompileReply) => {
      if (worker.retired) return;
      if ('ready' in reply) {
        worker.state = 'idle';
      } else if ('loaded' in reply) {
        if (worker.state !== 'loading' || reply.loaded !== worker.job?.processor) return;
        clearTimeout(worker.timer);
        worker.loaded.add(reply.loaded);
        compile(worker);
      } else if ('pong' in reply) {
        if (worker.state !== 'checking' || reply.pong !== worker.pinged) return;
        clearTimeout(worker.timer);
        clearInterval(worker.watch);
        // Over the cap at rest: garbage a GC may never return to the system. A fresh child is cheaper.
        if (reply.rss > maxBytes) retire(worker);
        else worker.state = 'idle';
      } else if (worker.job?.id === reply.id) {
        answer(worker, reply.timedOut ? transientCopy(reply.result) : reply.result);
      } else {
        return;
      }
      dispatch();
    });
    child.on('exit', () => {
      if (worker.retired) return;
      const started = worker.state !== 'starting';
      retire(worker, 'the compiler stopped unexpectedly');
      // A child that dies before it is ready would die again (not built, no permission): fail, do not loop.
      if (!started) for (const job of queue.drain()) job.resolve(failNow('the compiler could not start'));
    });
    child.on('error', () => child.kill('SIGKILL'));
    workers.push(worker);
  }

  /** Gives the job its result and asks the child whether it is idle again. */
  function answer(worker: Worker, result: CompileResult): void {
    clearTimeout(worker.timer);
    const job = worker.job!;
    worker.job = undefined;
    job.resolve(result);
    worker.state = 'checking';
    worker.pinged = job.id;
    worker.child.send({ ping: job.id } satisfies WorkerMessage);
    worker.timer = setTimeout(() => {
      retire(worker);
      dispatch();
    }, PONG_MS);
    worker.timer.unref();
  }

  /** Kills the child for good; a job it still had fails with `reason`, a failure of the moment. */
  function retire(worker: Worker, reason?: string): void {
    if (worker.retired) return;
    worker.retired = true;
    clearTimeout(worker.timer);
    clearInterval(worker.watch);
    const index = workers.indexOf(worker);
    if (index !== -1) workers.splice(index, 1);
    if (worker.job && reason) worker.job.resolve(failNow(reason));
    worker.job = undefined;
    worker.child.kill('SIGKILL');
  }

  /** Kills a busy or checking child over the memory cap, as often as WATCH_MS. */
  function watchMemory(worker: Worker): void {
    clearInterval(worker.watch);
    worker.watch = setInterval(() => {
      const bytes = residentBytes(worker.child.pid);
      if (bytes === undefined || bytes <= maxBytes) return;
      retire(worker, `used more than ${options.maxMemoryMb} MB of memory and was stopped`);
      dispatch();
    }, WATCH_MS);
    worker.watch.unref();
  }

  /** Children with work keep this process alive (to deliver the answer); idle ones must not. */
  function holdOpen(): void {
    for (const { child, state } of workers) {
      const busy = state === 'busy' || state === 'loading' || (state === 'starting' && queue.size > 0);
      if (busy) child.ref();
      else child.unref();
      // The IPC channel is a handle of its own (typed loosely by @types/node).
      const channel = child.channel as { ref?(): void; unref?(): void } | undefined;
      if (busy) channel?.ref?.();
      else channel?.unref?.();
    }
  }

  function dispatch(): void {
    try {
      pump();
    } finally {
      holdOpen();
    }
  }

  function pump(): void {
    while (!closed && queue.size > 0) {
      const worker = workers.find((w) => w.state === 'idle');
      if (!worker) {
        const starting = workers.filter((w) => w.state === 'starting').length;
        if (workers.length < size && starting < queue.size) spawn();
        return;
      }
      const job = queue.shift()!;
      worker.job = { ...job, id: nextId++ };
      watchMemory(worker);
      if (worker.loaded.has(job.processor)) compile(worker);
      else load(worker);
    }
  }

  /** Has the child load the job's compiler first, so that the time limit counts compiling alone. */
  function load(worker: Worker): void {
    worker.state = 'loading';
    worker.timer = setTimeout(() => {
      retire(worker, 'the compiler took too long to load, try again shortly');
      dispatch();
    }, LOAD_MS);
    worker.child.send({ load: worker.job!.processor, timeoutMs: LOAD_MS } satisfies WorkerMessage);
  }

  function compile(worker: Worker): void {
    const { id, processor, source } = worker.job!;
    worker.state = 'busy';
    // A loop inside a compiler or a huge output: the child is beyond saving. The next job starts a new one.
    worker.timer = setTimeout(() => {
      retire(worker, `took longer than ${timeoutMs} ms and was stopped`);
      dispatch();
    }, timeoutMs + graceMs(timeoutMs));
    worker.child.send({ id, processor, source, timeoutMs } satisfies WorkerMessage);
  }

  return {
    run(processor, source, client = '') {
      if (closed) return Promise.resolve(failNow('the server is shutting down'));
      if (queue.waiting(client) >= maxQueuePerClient || queue.size >= maxQueue) {
        return Promise.resolve(failNow('too many compiles waiting, try again shortly'));
      }
      return new Promise((resolve) => {
        queue.push(client, { processor, source, resolve });
        dispatch();
      });
    },
    close() {
      closed = true;
      for (const job of queue.drain()) job.resolve(failNow('the server is shutting down'));
      for (const worker of [...workers]) retire(worker, 'the server is shutting down');
    },
  };
}

import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Compiled, CompileResult } from '../shared/processors.js';
import type { CompileReply, CompileRequest } from './compile-worker.js';

/** The package root; the worker is always the built one (tests run the sources, `npm test` builds first). */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORKER = `${ROOT}dist/bins/compile-worker.js`;
const COMPILER_PACKAGES = ['marked', 'pug', 'less', 'coffeescript', 'typescript'];

export type PoolOptions = {
  /** Child processes compiling at once. */
  size: number;
  /** A compile taking longer is stopped: its child is killed and replaced. */
  timeoutMs: number;
  /** Compiles waiting for a child; beyond this they are refused at once. */
  maxQueue: number;
};

export type CompilePool = {
  run(processor: Compiled, source: string): Promise<CompileResult>;
  /** Kills the children; waiting compiles fail. */
  close(): void;
};

type Job = { processor: Compiled; source: string; resolve(result: CompileResult): void };
type Worker = { child: ChildProcess; ready: boolean; job?: Job & { id: number; timer: NodeJS.Timeout } };

/**
 * What the children may read: the worker, the package.json that makes it ESM, the compilers' node_modules.
 * One --allow-fs-read per path: Node 20.20 takes the flag repeatedly and reads "a,b" as one odd path.
 */
function permissionArgs(): string[] {
  const require = createRequire(import.meta.url);
  // The worker and the one module of ours it imports (line and column of a LESS @plugin).
  const paths = new Set([WORKER, `${ROOT}dist/shared/json-check.js`, `${ROOT}package.json`]);
  for (const name of COMPILER_PACKAGES) {
    const file = require.resolve(name);
    const at = file.lastIndexOf('/node_modules/');
    paths.add(`${at === -1 ? dirname(file) : file.slice(0, at + '/node_modules'.length)}/*`);
  }
  // Node 22.13 renamed the switch; the old name is gone in 24.
  const permission = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';
  return [permission, ...[...paths].map((path) => `--allow-fs-read=${path}`), '--no-warnings', '--max-old-space-size=256'];
}

const fail = (message: string): CompileResult => ({ ok: false, error: { message } });

const transient = new WeakSet<CompileResult>();
/** A failure that says nothing about the source (shutting down, busy, a crash): not to be cached. */
export function isTransient(result: CompileResult): boolean {
  return transient.has(result);
}
function failNow(message: string): CompileResult {
  const result = fail(message);
  transient.add(result);
  return result;
}

/** A few compile children, started on first use and replaced when one is killed or dies. */
export function createCompilePool({ size, timeoutMs, maxQueue }: PoolOptions): CompilePool {
  let execArgv: string[] | undefined;
  const workers: Worker[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  function spawn(): Worker {
    execArgv ??= permissionArgs();
    // An empty environment: a template that reaches process.env finds no secrets of the server's.
    const child = fork(WORKER, [], { execArgv, env: {}, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    const worker: Worker = { child, ready: false };
    child.on('message', (reply: CompileReply) => {
      if ('ready' in reply) {
        worker.ready = true;
        dispatch();
      } else if (worker.job?.id === reply.id) {
        finish(worker, reply.result);
      }
    });
    child.on('exit', () => {
      const index = workers.indexOf(worker);
      if (index !== -1) workers.splice(index, 1);
      if (worker.job) finish(worker, failNow('the compiler stopped unexpectedly'));
      // A child that dies before it is ready would die again (not built, no permission): fail, do not loop.
      if (!worker.ready) for (const job of queue.splice(0)) job.resolve(failNow('the compiler could not start'));
    });
    child.on('error', () => child.kill('SIGKILL'));
    workers.push(worker);
    return worker;
  }

  function finish(worker: Worker, result: CompileResult): void {
    const job = worker.job!;
    clearTimeout(job.timer);
    worker.job = undefined;
    job.resolve(result);
    dispatch();
  }

  /** Children with work keep this process alive (to deliver the answer); idle ones must not. */
  function holdOpen(): void {
    for (const { child, ready, job } of workers) {
      const busy = job !== undefined || (!ready && queue.length > 0);
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
    while (!closed && queue.length > 0) {
      const worker = workers.find((w) => w.ready && !w.job);
      if (!worker) {
        const starting = workers.filter((w) => !w.ready).length;
        if (workers.length < size && starting < queue.length) spawn();
        return;
      }
      const job = queue.shift()!;
      const id = nextId++;
      const timer = setTimeout(() => {
        // A loop or a huge output: the child is beyond saving. The next job starts a new one.
        const running = worker.job!;
        worker.job = undefined;
        workers.splice(workers.indexOf(worker), 1);
        worker.child.kill('SIGKILL');
        running.resolve(fail(`took longer than ${timeoutMs} ms and was stopped`));
        dispatch();
      }, timeoutMs);
      worker.job = { ...job, id, timer };
      const request: CompileRequest = { id, processor: job.processor, source: job.source, timeoutMs };
      worker.child.send(request);
    }
  }

  return {
    run(processor, source) {
      if (closed) return Promise.resolve(failNow('the server is shutting down'));
      if (queue.length >= maxQueue) return Promise.resolve(failNow('too many compiles waiting, try again shortly'));
      return new Promise((resolve) => {
        queue.push({ processor, source, resolve });
        dispatch();
      });
    },
    close() {
      closed = true;
      for (const job of queue.splice(0)) job.resolve(failNow('the server is shutting down'));
      for (const worker of workers.splice(0)) {
        if (worker.job) finish(worker, failNow('the server is shutting down'));
        worker.child.kill('SIGKILL');
      }
    },
  };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { constants } from 'node:os';
import { SERVER_TEMP, tempDir } from './temp.js';

/** A port nobody listens on now, from the OS (the servers cannot take port 0 themselves). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

export type ServerProcess = {
  /** Resolves once the process has exited (at once if it has already). */
  stop(signal: NodeJS.Signals): Promise<void>;
};

// Every server this test run started and has not stopped, and their folders: the exit and signal
// handlers below stop and remove them if the run ends without its root `after` hook (a crash,
// Ctrl+C, a kill). Only SIGKILL leaves folders behind (the servers still stop: see below).
const running = new Map<ChildProcess, NodeJS.Signals>();
const folders = new Set<string>();

function stopAllNow(): void {
  for (const [child, signal] of running) child.kill(signal);
  running.clear();
  for (const dir of folders) {
    try {
      // The servers may still be writing as they go: retry a folder that fills up again.
      rmSync(dir, { recursive: true, force: true, maxRetries: 10 });
    } catch {
      // nothing more can be done on the way out
    }
  }
  folders.clear();
}

process.on('exit', stopAllNow);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  // Stop the servers, then end as Node would without this handler (128 + the signal's number).
  // The handler stays: removed, a second signal (mocha forwards Ctrl+C to the test process, which
  // gets it from the terminal too) could kill the process halfway through stopAllNow.
  process.on(signal, () => {
    stopAllNow();
    process.exit(128 + constants.signals[signal]);
  });
}

/** A temp folder for a server's files, removed by remove() or when this process ends. */
export function serverFolder(prefix: string): { dir: string; remove(): void } {
  const { dir, cleanup } = tempDir(prefix, SERVER_TEMP);
  folders.add(dir);
  return {
    dir,
    remove() {
      cleanup();
      folders.delete(dir);
    },
  };
}

/**
 * Starts `command` and resolves once a line of its output matches `ready`: readiness observed,
 * never waited for. It runs under setpriv so that it gets `dieSignal` if this process dies
 * before stopping it, even by SIGKILL (no stray servers), and as `user` if given (initdb and
 * postgres refuse to run as root).
 */
export async function startServerProcess(options: {
  command: string;
  args: string[];
  ready: RegExp;
  dieSignal: NodeJS.Signals;
  user?: string;
}): Promise<ServerProcess> {
  const { command, args, ready, dieSignal, user } = options;
  const identity = user === undefined ? [] : [`--reuid=${user}`, `--regid=${user}`, '--init-groups'];
  const child = spawn('setpriv', [...identity, `--pdeathsig=${dieSignal.slice(3)}`, '--', command, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.set(child, dieSignal);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));

  // The output is read to its end (a full pipe would block the server); the last lines are kept
  // for the error message of a server that does not start.
  let tail = '';
  let partial = '';
  let readyLine: () => void = () => {};
  const isReady = new Promise<void>((resolve) => (readyLine = resolve));
  const read = (chunk: Buffer): void => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      tail = (tail + line + '\n').slice(-4000);
      if (ready.test(line)) readyLine();
    }
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);

  const failed = Promise.race([
    once(child, 'error').then(([error]) => {
      throw error;
    }),
    exited.then(() => {
      throw new Error(`${command} exited before it was ready:\n${tail}`);
    }),
  ]);
  failed.catch(() => {}); // once ready, a later exit is stop()'s business, not an error
  await Promise.race([isReady, failed]);

  return {
    async stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

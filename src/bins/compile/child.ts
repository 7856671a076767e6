/**
 * Starting a compile child (worker.ts) and reading its memory: what the child may touch and
 * how it is measured, apart from the pool's scheduling.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { packageFile } from '../../server/package-files.js';

/** The worker is always tsc's build (tests run the sources, `npm test` builds first). */
const WORKER = packageFile('dist/bins/compile/worker.js');
const COMPILER_PACKAGES = ['marked', 'pug', 'less', 'coffeescript', 'typescript', 'sass', 'stylus'];

/**
 * What the children may read: the worker, the package.json that makes it ESM, the compilers' node_modules.
 * One --allow-fs-read per path: Node 20.20 takes the flag repeatedly and reads "a,b" as one odd path.
 */
function permissionArgs(): string[] {
  const require = createRequire(import.meta.url);
  // The worker and the modules of ours it imports (its network cut, SCSS and Stylus, its compilers' loader,
  // a LESS @plugin's place, the Files gate its importers ask).
  const ours = ['offline', 'styles', 'lazy-package'].map((name) => `dist/bins/compile/${name}.js`);
  ours.push('dist/shared/json-check.js', 'dist/gates/file-gate.js', 'package.json');
  const paths = new Set([WORKER, ...ours.map(packageFile)]);
  for (const name of COMPILER_PACKAGES) {
    const file = require.resolve(name);
    const at = file.lastIndexOf('/node_modules/');
    paths.add(`${at === -1 ? dirname(file) : file.slice(0, at + '/node_modules'.length)}/*`);
  }
  // Node 22.13 renamed the switch; the old name is gone in 24.
  const permission = process.allowedNodeEnvironmentFlags.has('--permission')
    ? '--permission'
    : '--experimental-permission';
  const reads = [...paths].map((path) => `--allow-fs-read=${path}`);
  // The heap cap makes a runaway heap crash the child early; typed arrays live outside it (see residentBytes).
  return [permission, ...reads, '--no-warnings', '--max-old-space-size=256'];
}

/** A process's resident memory in bytes, from Linux's /proc; undefined elsewhere (the pong's figure serves). */
export function residentBytes(pid: number | undefined): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

let execArgv: string[] | undefined;

/** A new compile child, talking over IPC only; it says `{ ready: true }` once its compilers are loaded. */
export function forkCompileChild(): ChildProcess {
  execArgv ??= permissionArgs();
  // An empty environment: a template that reaches process.env finds no secrets of the server's.
  return fork(WORKER, [], { execArgv, env: {}, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
}

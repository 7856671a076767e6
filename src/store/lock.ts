import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { DataFileError, reason } from './data-file.js';

/** The lock files this process holds. */
const held = new Set<string>();

/**
 * One server per data file: `<file>.lock` holds the owner's pid. A lock left by a process that
 * is gone (a crash, kill -9) is taken over, so a restart after a crash needs no manual step.
 * Returns the release function.
 */
export function lockDataFile(file: string): () => void {
  const lockPath = `${file}.lock`;
  // Our own pid in the file reads as stale below (left by an earlier process that had it), so the locks
  // this process holds are known here: two servers started from code (the Node API) must not share a file.
  if (held.has(lockPath)) {
    throw new DataFileError(`the data file ${file} is in use by another server in this process; close that one first or use another file`);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockPath, `${process.pid}\n`, { flag: 'wx' });
      held.add(lockPath);
      return once(() => {
        held.delete(lockPath);
        release(lockPath);
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new DataFileError(`cannot create the lock file ${lockPath}: ${reason(err)}`);
      }
    }
    const owner = readOwner(lockPath);
    if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
      throw new DataFileError(
        `the data file ${file} is in use by another snippetkit server (pid ${owner}); ` +
          'stop that server or pass --data with another file',
      );
    }
    try {
      unlinkSync(lockPath); // stale: its owner is gone
    } catch {
      // another starter removed it first; the next attempt settles who wins
    }
  }
  throw new DataFileError(`the data file ${file} is being opened by another snippetkit server`);
}

function readOwner(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function release(lockPath: string): void {
  if (readOwner(lockPath) !== process.pid) return;
  try {
    unlinkSync(lockPath);
  } catch {
    // already gone
  }
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (!done) {
      done = true;
      fn();
    }
  };
}

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temp folder, removed by the returned cleanup; in `base` if given (the system's temp folder otherwise). */
export function tempDir(prefix = 'snippetkit-test-', base = tmpdir()): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(base, prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Where a throwaway server's files go: memory (/dev/shm) where the machine has it. The test PostgreSQL
 * makes a database of some 300 files per test; on disk, removing its folder at the run's end took
 * 3 to 29 s of a loaded machine, which a memory file system does at once.
 */
export const SERVER_TEMP = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

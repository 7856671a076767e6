import { mkdirSync, openSync, readSync, closeSync, accessSync, constants } from 'node:fs';
import { dirname, resolve } from 'node:path';
import envPaths from 'env-paths';

/** A problem with the data file that the user must fix; its message names the path. */
export class DataFileError extends Error {
  override name = 'DataFileError';
}

const SQLITE_HEADER = 'SQLite format 3\0';

/** A file of ours in the user's data directory (e.g. ~/.local/share/snippetkit). */
export function userDataPath(name: string): string {
  return resolve(envPaths('snippetkit', { suffix: '' }).data, name);
}

/** The default SQLite file for a server, in the user's data directory. */
export function defaultDataFile(server: 'bins' | 'mocks'): string {
  return userDataPath(`${server}.sqlite`);
}

/**
 * Makes sure `file` can be opened as our SQLite store before anything touches it: its folder exists
 * (created) and is writable (SQLite keeps its WAL and journal beside the file), and the file is absent,
 * or empty or SQLite and writable, with the files SQLite keeps beside it. A read-only file would
 * otherwise open, and then fail every save and delete.
 */
export function prepareDataFile(file: string): string {
  const path = resolve(file);
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw new DataFileError(`cannot use the folder ${dir} for the data file: ${reason(err)}`);
  }
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return path;
    throw new DataFileError(`cannot read the data file ${path}: ${reason(err)}`);
  }
  try {
    const header = Buffer.alloc(16);
    const read = readSync(fd, header, 0, 16, 0);
    if (read > 0 && header.toString('latin1', 0, read) !== SQLITE_HEADER) {
      throw new DataFileError(`the data file ${path} is not a SQLite database; pass --data with another file`);
    }
  } catch (err) {
    if (err instanceof DataFileError) throw err;
    throw new DataFileError(`cannot read the data file ${path}: ${reason(err)}`);
  } finally {
    closeSync(fd);
  }
  for (const written of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    try {
      accessSync(written, constants.W_OK);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new DataFileError(
        `cannot write the data file ${written}: ${reason(err)}; make it writable or pass --data with another file`,
      );
    }
  }
  return path;
}

export function reason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ? `${e.code} (${e.message.replace(/^\w+: /, '')})` : String(e.message ?? err);
}

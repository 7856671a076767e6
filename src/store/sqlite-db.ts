import sqlite3 from 'sqlite3';
import { DataFileError, prepareDataFile, reason } from './data-file.js';
import { lockDataFile } from './lock.js';
import type { Row } from './sqlite.js';

/** A statement prepared once and kept for the connection's life. */
export type Prepared = {
  /** Runs a write; resolves to the number of rows it changed. */
  run(...params: unknown[]): Promise<number>;
  /** Every row of a read. */
  all(...params: unknown[]): Promise<Row[]>;
};

/** A connection of our own to a data file, for tables this project owns. */
export type SqliteDb = {
  prepare(sql: string): Prepared;
  /** Runs one statement once (schema, migration): prepared and finalised by SQLite itself. */
  query(sql: string, ...params: unknown[]): Promise<Row[]>;
  /** Runs statements separated by `;` in one call (one threadpool job), no parameters, no rows. */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
};

/**
 * Opens `file` (created with its folders) for tables of our own alone, without Keyv, in WAL mode:
 * checks it first (data-file.ts) and takes the one-server-per-file lock unless `lock` is false
 * (tools and tests that only look at a server's file).
 */
export async function openDataFileDb(file: string, options: { lock?: boolean } = {}): Promise<SqliteDb & { file: string }> {
  const path = prepareDataFile(file);
  const unlock = options.lock === false ? () => {} : lockDataFile(path);
  let db: SqliteDb;
  try {
    db = await openSqliteDb(path);
  } catch (err) {
    unlock();
    throw new DataFileError(`cannot open the data file ${path} as SQLite: ${reason(err)}`);
  }
  try {
    // As sqlite.ts does: readers never wait for the writer, and a commit is one append. Then the schema
    // is read: a file that is not SQLite fails here.
    await db.exec('PRAGMA journal_mode=WAL; SELECT 1 FROM sqlite_master LIMIT 1');
  } catch (err) {
    await db.close().catch(() => {});
    unlock();
    throw new DataFileError(`cannot open the data file ${path} as SQLite: ${reason(err)}`);
  }
  return {
    ...db,
    file: path,
    async close() {
      try {
        await db.close();
      } finally {
        unlock();
      }
    },
  };
}

/**
 * Opens `file` (already checked and locked by its Keyv, see sqlite.ts), waiting up to 5 s for that
 * connection's writes. Reads use `all`, never `get`: a statement stepped but not to its end keeps
 * its implicit transaction open, and every write after it would wait uncommitted.
 */
export async function openSqliteDb(file: string): Promise<SqliteDb> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(opened)));
  });
  db.configure('busyTimeout', 5000);
  const statements: sqlite3.Statement[] = [];
  const query = (sql: string, ...params: unknown[]) =>
    new Promise<Row[]>((resolve, reject) => db.all(sql, params, (err, rows: Row[]) => (err ? reject(err) : resolve(rows))));
  await query('PRAGMA synchronous=NORMAL');
  let closed: Promise<void> | undefined;
  return {
    prepare(sql) {
      const statement = db.prepare(sql);
      statements.push(statement);
      return {
        run: (...params) =>
          new Promise((resolve, reject) =>
            statement.run(params, function (this: sqlite3.RunResult, err: Error | null) {
              if (err) reject(err);
              else resolve(this.changes);
            }),
          ),
        all: (...params) =>
          new Promise((resolve, reject) => statement.all(params, (err, rows: Row[]) => (err ? reject(err) : resolve(rows)))),
      };
    },
    query,
    exec: (sql) => new Promise((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve()))),
    close() {
      // sqlite3_close refuses a connection whose statements are not finalised.
      closed ??= (async () => {
        await Promise.all(statements.map((s) => new Promise((resolve) => s.finalize(() => resolve(undefined)))));
        await new Promise<void>((resolve, reject) => db.close((err) => (err ? reject(err) : resolve())));
      })();
      return closed;
    },
  };
}

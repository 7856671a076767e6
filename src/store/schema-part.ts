import { DataFileError } from './data-file.js';
import type { Row } from './sqlite.js';

export type Query = (sql: string, ...params: unknown[]) => Promise<Row[]>;

/** What a schema part is given: single statements with their rows, and batches run in one call. */
export type SchemaDb = {
  query: Query;
  /** Runs statements separated by `;` in one call to SQLite (one job on Node's threadpool), no rows. */
  exec(sql: string): Promise<void>;
};

/** One set of our own tables in a data file, versioned on its own in `snippetkit_schema`. */
export type SchemaPart = {
  /** Its row in `snippetkit_schema`. */
  part: string;
  version: number;
  /** What the tables hold, for the refusal: `the request logs`. */
  what: string;
  /** Creates its tables when missing (it runs at every start, so each statement may meet them made). */
  create(db: SchemaDb): Promise<unknown>;
};

/**
 * Creates the parts' tables in order and records their versions; refuses a file (named) in which a
 * newer version wrote any of them, before changing anything. Versions are read and written in one
 * statement each, and parts batch their statements: each round trip waits for the main thread, which
 * is busy loading the server while a data file opens.
 */
export async function prepareParts(db: SchemaDb, file: string, parts: SchemaPart[]): Promise<void> {
  await db.exec('CREATE TABLE IF NOT EXISTS snippetkit_schema (part TEXT PRIMARY KEY, version INTEGER NOT NULL)');
  const rows = await db.query('SELECT part, version FROM snippetkit_schema');
  const versions = new Map(rows.map((row) => [String(row.part), Number(row.version)]));
  const written = (part: SchemaPart) => versions.get(part.part) ?? 0;
  for (const part of parts) {
    if (written(part) > part.version) {
      throw new DataFileError(
        `${part.what} in the data file ${file} were written by a newer snippetkit (schema ${written(part)}); upgrade it`,
      );
    }
  }
  for (const part of parts) await part.create(db);
  const behind = parts.filter((part) => written(part) < part.version);
  if (behind.length === 0) return;
  await db.query(
    `INSERT OR REPLACE INTO snippetkit_schema (part, version) VALUES ${behind.map(() => '(?, ?)').join(', ')}`,
    ...behind.flatMap((part) => [part.part, part.version]),
  );
}

/**
 * Runs `statements` as one transaction in one call, or `work` (more calls) inside one; rolls back
 * when any fails, so a crash or a failure leaves the file as it was.
 */
export async function transaction(db: SchemaDb, statements: string[], work?: () => Promise<void>): Promise<void> {
  try {
    if (!work) return await db.exec(['BEGIN IMMEDIATE', ...statements, 'COMMIT'].join(';\n'));
    await db.exec(['BEGIN IMMEDIATE', ...statements].join(';\n'));
    await work();
    await db.exec('COMMIT');
  } catch (err) {
    // A failure before BEGIN took effect leaves no transaction, and ROLLBACK's own refusal says so.
    await db.exec('ROLLBACK').catch(() => {});
    throw err;
  }
}

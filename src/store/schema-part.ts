import { DataFileError } from './data-file.js';
import type { Row } from './sqlite.js';

export type Query = (sql: string, ...params: unknown[]) => Promise<Row[]>;

/** One set of our own tables in a data file, versioned on its own in `snippetkit_schema`. */
export type SchemaPart = {
  /** Its row in `snippetkit_schema`. */
  part: string;
  version: number;
  /** What the tables hold, for the refusal: `the request logs`. */
  what: string;
  /** Creates its tables when missing. */
  create(query: Query): Promise<unknown>;
};

/** Creates the part's tables and records its version; refuses a file (named) whose part a newer version wrote. */
export async function preparePart(query: Query, file: string, schema: SchemaPart): Promise<void> {
  await query('CREATE TABLE IF NOT EXISTS snippetkit_schema (part TEXT PRIMARY KEY, version INTEGER NOT NULL)');
  const [row] = await query('SELECT version FROM snippetkit_schema WHERE part = ?', schema.part);
  const version = row ? Number(row.version) : 0;
  if (version > schema.version) {
    throw new DataFileError(
      `${schema.what} in the data file ${file} were written by a newer snippetkit (schema ${version}); upgrade it`,
    );
  }
  await schema.create(query);
  if (version < schema.version) {
    await query('INSERT OR REPLACE INTO snippetkit_schema (part, version) VALUES (?, ?)', schema.part, schema.version);
  }
}

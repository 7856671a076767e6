import { DataFileError } from '../data-file.js';
import type { PostgresDb, StatementRunner } from './client.js';

/** One set of our own tables in a PostgreSQL database, versioned on its own in `snippetkit_schema`. */
export type PostgresSchemaPart = {
  /** Its row in `snippetkit_schema`. */
  part: string;
  version: number;
  /** What the tables hold, for the refusal: `the bins`. */
  what: string;
  /** Creates its tables, or brings them from an older version, inside the preparing transaction. */
  create(query: StatementRunner, from: number): Promise<unknown>;
};

// Serializes preparing across every instance on the database (instances starting at once would race
// on CREATE TABLE IF NOT EXISTS, which is not safe under concurrency); held until commit.
const SCHEMA_LOCK = 0x736e_6970; // 'snip'

/**
 * Creates the part's tables and records its version, in one transaction under an advisory lock;
 * refuses a database whose part a newer version wrote (DataFileError: the CLI exits 3).
 */
export async function preparePostgresPart(db: PostgresDb, schema: PostgresSchemaPart): Promise<void> {
  await db.transaction(async (query) => {
    await query({ text: 'SELECT pg_advisory_xact_lock($1)', values: [SCHEMA_LOCK] });
    await query({ text: 'CREATE TABLE IF NOT EXISTS snippetkit_schema (part text PRIMARY KEY, version integer NOT NULL)' });
    const [row] = await query({ text: 'SELECT version FROM snippetkit_schema WHERE part = $1', values: [schema.part] });
    const version = row ? Number(row.version) : 0;
    if (version > schema.version) {
      throw new DataFileError(
        `${schema.what} in the database ${db.where} were written by a newer snippetkit (schema ${version}); upgrade it`,
      );
    }
    if (version === schema.version) return;
    await schema.create(query, version);
    await query({
      text: `INSERT INTO snippetkit_schema (part, version) VALUES ($1, $2)
        ON CONFLICT (part) DO UPDATE SET version = excluded.version`,
      values: [schema.part, schema.version],
    });
  });
}

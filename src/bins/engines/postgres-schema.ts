import type { PostgresSchemaPart } from '../../store/postgres/schema-part.js';

/**
 * The bins' tables on PostgreSQL, as on SQLite (sqlite-schema.ts). Ids and times sort byte by
 * byte (COLLATE "C"), as SQLite's do, whatever the database's locale; settings stay the JSON text
 * they were saved as, so they read back exactly (jsonb would reorder keys).
 */
const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS bin_heads (bin text COLLATE "C" PRIMARY KEY, latest integer NOT NULL,
    next integer NOT NULL, created text NOT NULL, updated text COLLATE "C" NOT NULL, summary text NOT NULL,
    folded text NOT NULL)`,
  // The list: bins with a revision, last saved first.
  'CREATE INDEX IF NOT EXISTS bin_heads_by_updated ON bin_heads (updated DESC, bin DESC) WHERE latest > 0',
  `CREATE TABLE IF NOT EXISTS bin_revisions (bin text COLLATE "C" NOT NULL, rev integer NOT NULL,
    html text NOT NULL, javascript text NOT NULL, css text NOT NULL, settings text NOT NULL, created text NOT NULL,
    PRIMARY KEY (bin, rev))`,
  // Live messages too long for a notice (../../store/postgres/relay.ts), kept a minute.
  `CREATE TABLE IF NOT EXISTS bin_relay (id bigserial PRIMARY KEY, body text NOT NULL,
    sent timestamptz NOT NULL DEFAULT now())`,
  // The one template: a row whose key can only be true.
  `CREATE TABLE IF NOT EXISTS bin_template (id boolean PRIMARY KEY DEFAULT true CHECK (id), html text NOT NULL,
    javascript text NOT NULL, css text NOT NULL, settings text NOT NULL, updated text NOT NULL)`,
];

/** The database's bin tables (schema part `bins`, version 1), made ready as the engine opens. */
export const BIN_TABLES: PostgresSchemaPart = {
  part: 'bins',
  version: 1,
  what: 'the bins',
  create: async (query) => {
    for (const text of SCHEMA) await query({ text });
  },
};

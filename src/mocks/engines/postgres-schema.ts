import type { PostgresSchemaPart } from '../../store/postgres/schema-part.js';

/**
 * The mocks' tables on PostgreSQL, as on SQLite (sqlite-schema.ts), beside the bins' if they
 * share the database. Names and times sort byte by byte (COLLATE "C"), as SQLite's do, so the later
 * of two ISO times is the greater; records, entries and collections stay the JSON text they were
 * saved as (jsonb would reorder keys).
 */
const SCHEMA = [
  'CREATE TABLE IF NOT EXISTS mock_endpoints (name text COLLATE "C" PRIMARY KEY, record text NOT NULL)',
  // An endpoint's counters; a save locks its row first, so two instances' saves of one endpoint take turns.
  `CREATE TABLE IF NOT EXISTS mock_stats (name text COLLATE "C" PRIMARY KEY, hits bigint NOT NULL,
    last_call text COLLATE "C", sequence bigint NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS mock_requests (name text COLLATE "C" NOT NULL, seq bigint NOT NULL, entry text NOT NULL,
    PRIMARY KEY (name, seq))`,
  // `version`: one added at each save (engine.ts SavedCollection), which is conditional on it.
  `CREATE TABLE IF NOT EXISTS mock_collections (name text COLLATE "C" PRIMARY KEY, seed text NOT NULL,
    value text NOT NULL, version bigint NOT NULL)`,
  // Scenario states (version 2): a scenario without a row is at `start`.
  'CREATE TABLE IF NOT EXISTS mock_scenarios (name text COLLATE "C" PRIMARY KEY, state text NOT NULL)',
  // Live messages too long for a notice (../../store/postgres/relay.ts), kept a minute.
  `CREATE TABLE IF NOT EXISTS mock_relay (id bigserial PRIMARY KEY, body text NOT NULL,
    sent timestamptz NOT NULL DEFAULT now())`,
];

/**
 * The database's mock tables (schema part `mocks`), made ready as the engine opens. Version 2 adds
 * `mock_scenarios`; every statement is IF NOT EXISTS, so a version 1 database gets that table alone.
 */
export const MOCK_TABLES: PostgresSchemaPart = {
  part: 'mocks',
  version: 2,
  what: 'the mocks',
  create: async (query) => {
    for (const text of SCHEMA) await query({ text });
  },
};

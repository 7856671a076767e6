import { transaction, type SchemaDb, type SchemaPart } from '../../store/schema-part.js';

/**
 * The mocks' own tables, each set a schema part of its own. A stats save or forget is one INSERT into
 * a view whose trigger writes every table it touches, so it lands whole or not at all with no
 * transaction held open across calls on a connection every request shares (as for the bins).
 */

/** Endpoint records, one JSON row each (../record/record.ts's StoredMock). */
const ENDPOINTS = 'CREATE TABLE IF NOT EXISTS mock_endpoints (name TEXT PRIMARY KEY, record TEXT NOT NULL)';

/** Keyv's rows of the records an earlier release kept (`mocks:endpoint:<name>`, `{"value": record}`). */
const OLD_ROWS = "key >= 'mocks:endpoint:' AND key < 'mocks:endpoint;'";

/** Moves the old rows' records in; the old store skipped a row without a record name: so does the move. */
const MOVE_OLD_ROWS = `INSERT OR REPLACE INTO mock_endpoints (name, record) SELECT substr(key, ${'mocks:endpoint:'.length + 1}),
  value -> '$.value' FROM keyv WHERE ${OLD_ROWS} AND value ->> '$.value.name' IS NOT NULL`;

/**
 * The endpoint table (schema part `mock-endpoints`), with the records an earlier release kept as Keyv
 * rows moved into it in one transaction with the old rows' deletion, so a crash leaves the old layout
 * whole. Keyv's table stays: the bins may share it.
 */
const ENDPOINT_PART: SchemaPart = {
  part: 'mock-endpoints',
  version: 1,
  what: 'the endpoints',
  create: async (db) => {
    const old = await hasOldRows(db);
    await transaction(db, old ? [ENDPOINTS, MOVE_OLD_ROWS, `DELETE FROM keyv WHERE ${OLD_ROWS}`] : [ENDPOINTS]);
  },
};

/** Whether Keyv's table holds records an earlier release kept: nothing but that release writes them. */
async function hasOldRows(db: SchemaDb): Promise<boolean> {
  const [keyv] = await db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'keyv'");
  if (!keyv) return false;
  const [old] = await db.query(`SELECT 1 FROM keyv WHERE ${OLD_ROWS} LIMIT 1`);
  return old !== undefined;
}

const STATS = [
  'CREATE TABLE IF NOT EXISTS mock_stats (name TEXT PRIMARY KEY, hits INTEGER NOT NULL, last_call TEXT, sequence INTEGER NOT NULL)',
  // Rowid table with the key as an index: entries reach 64 KiB, too large to cluster WITHOUT ROWID.
  `CREATE TABLE IF NOT EXISTS mock_requests (name TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL,
    PRIMARY KEY (name, seq))`,
  // Replaced at each start, so a newer body never meets an older trigger.
  'DROP TRIGGER IF EXISTS mock_stats_save_insert',
  'DROP VIEW IF EXISTS mock_stats_save',
  'DROP TRIGGER IF EXISTS mock_stats_forget_insert',
  'DROP VIEW IF EXISTS mock_stats_forget',
  // A save (engine.ts's EndpointSave list) as two JSON lists: `entries` ({name, at, entry}: the
  // entry numbered `at` past its log's newest; the INSERT reads its own table, so SQLite computes every
  // row before it writes one) and `counters` ({name, hits, lastCall, sequence, keep}: hits added, then
  // the log keeps what is numbered above its newest less `keep`, its newest `keep`: a gap is left only
  // by skipped requests, which memory no longer holds either). Flat lists of small items: a field read
  // parses its item, so nesting each endpoint's entries in its item cost a parse of all of them per entry.
  'CREATE VIEW mock_stats_save AS SELECT NULL AS entries, NULL AS counters',
  `CREATE TRIGGER mock_stats_save_insert INSTEAD OF INSERT ON mock_stats_save BEGIN
    INSERT INTO mock_requests (name, seq, entry)
      SELECT value ->> '$.name',
        coalesce((SELECT max(r.seq) FROM mock_requests r WHERE r.name = value ->> '$.name'), 0) + (value ->> '$.at'),
        value -> '$.entry'
      FROM json_each(NEW.entries);
    INSERT INTO mock_stats (name, hits, last_call, sequence)
      SELECT value ->> '$.name', value ->> '$.hits', value ->> '$.lastCall', value ->> '$.sequence'
      FROM json_each(NEW.counters) WHERE true
      ON CONFLICT (name) DO UPDATE SET hits = hits + excluded.hits,
        last_call = CASE WHEN last_call IS NULL OR excluded.last_call > last_call THEN excluded.last_call ELSE last_call END,
        sequence = excluded.sequence;
    DELETE FROM mock_requests WHERE rowid IN (SELECT r.rowid FROM
      (SELECT value ->> '$.name' AS name, value ->> '$.keep' AS keep FROM json_each(NEW.counters)) t
      JOIN mock_requests r ON r.name = t.name
        AND r.seq <= (SELECT max(m.seq) FROM mock_requests m WHERE m.name = t.name) - t.keep);
  END`,
  // `names` is a JSON list.
  'CREATE VIEW mock_stats_forget AS SELECT NULL AS names',
  `CREATE TRIGGER mock_stats_forget_insert INSTEAD OF INSERT ON mock_stats_forget BEGIN
    DELETE FROM mock_requests WHERE name IN (SELECT value FROM json_each(NEW.names));
    DELETE FROM mock_stats WHERE name IN (SELECT value FROM json_each(NEW.names));
  END`,
];

/** Counters and request logs (schema part `mock-stats`; version 1's tables, saved through views since). */
const STATS_PART: SchemaPart = {
  part: 'mock-stats',
  version: 1,
  what: 'the request logs',
  create: (db) => transaction(db, STATS),
};

/**
 * Collections' live data (docs/mock-api.md, "Collections"): one row per collection endpoint holding
 * its whole state as JSON and `seed`, a digest of the data it started from, so a changed seed (a new
 * record, an edited db.json) is noticed and the stale state ignored. Version 2 adds `version`, which
 * each save adds one to (engine.ts SavedCollection); a version 1 file's rows get 1, as saved once.
 */
const COLLECTION_PART: SchemaPart = {
  part: 'mock-collections',
  version: 2,
  what: 'the collections',
  create: async (db) => {
    await db.exec(`CREATE TABLE IF NOT EXISTS mock_collections (name TEXT PRIMARY KEY, seed TEXT NOT NULL, value TEXT NOT NULL,
      version INTEGER NOT NULL)`);
    const [has] = await db.query("SELECT 1 FROM pragma_table_info('mock_collections') WHERE name = 'version'");
    if (!has) await db.exec('ALTER TABLE mock_collections ADD COLUMN version INTEGER NOT NULL DEFAULT 1');
  },
};

/**
 * Scenario states (docs/mock-api.md, "Scenarios"; schema part `mock-scenarios`): one row per scenario
 * whose state was set; a scenario without one is at `start`.
 */
const SCENARIO_PART: SchemaPart = {
  part: 'mock-scenarios',
  version: 1,
  what: 'the scenario states',
  create: (db) => db.exec('CREATE TABLE IF NOT EXISTS mock_scenarios (name TEXT PRIMARY KEY, state TEXT NOT NULL)'),
};

/** The mocks' parts, in the order they are made. */
export const MOCK_PARTS = [ENDPOINT_PART, STATS_PART, COLLECTION_PART, SCENARIO_PART];

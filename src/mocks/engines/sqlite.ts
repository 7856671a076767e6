import { prepareParts, type Query } from '../../store/schema-part.js';
import { openDataFileDb } from '../../store/sqlite-db.js';
import type { MockEngine, SavedEndpoint } from './engine.js';
import type { StoredMock } from '../record/record.js';
import { MOCK_PARTS } from './sqlite-schema.js';

/** Rows a page of the log load holds: bounds the memory of one read however large the table is. */
const LOAD_PAGE = 5000;

/**
 * The mocks on SQLite (sqlite-schema.ts): opens and locks `file`, moving an earlier release's
 * records out of Keyv's table at first start. One process writes the file (the lock), so there is
 * no change feed. Every statement the store runs is prepared once; each write is one statement.
 */
export async function openSqliteMocks(file: string): Promise<MockEngine> {
  const db = await openDataFileDb(file);
  try {
    await prepareParts(db, db.file, MOCK_PARTS);
  } catch (err) {
    await db.close();
    throw err;
  }
  const statements = {
    endpoint: db.prepare('SELECT record FROM mock_endpoints WHERE name = ?'),
    putEndpoint: db.prepare(
      'INSERT INTO mock_endpoints (name, record) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET record = excluded.record',
    ),
    deleteEndpoint: db.prepare('DELETE FROM mock_endpoints WHERE name = ?'),
    loadCollection: db.prepare('SELECT seed, value, version FROM mock_collections WHERE name = ?'),
    // A save from version 0 creates the row, from a later one replaces it at that version: one
    // statement each, which writes no row when the stored version differs.
    createCollection: db.prepare(
      'INSERT INTO mock_collections (name, seed, value, version) VALUES (?, ?, ?, 1) ON CONFLICT (name) DO NOTHING',
    ),
    replaceCollection: db.prepare(
      'UPDATE mock_collections SET seed = ?, value = ?, version = version + 1 WHERE name = ? AND version = ?',
    ),
    dropCollection: db.prepare('DELETE FROM mock_collections WHERE name = ?'),
    // JSON lists, read with json_each: a batch of any size is one statement, with no bound-variable
    // limit to chunk around.
    saveStats: db.prepare('INSERT INTO mock_stats_save (entries, counters) VALUES (?, ?)'),
    clearLog: db.prepare('DELETE FROM mock_requests WHERE name = ?'),
    forget: db.prepare('INSERT INTO mock_stats_forget (names) VALUES (?)'),
    // States as one JSON object of name to state: any number of them in one statement.
    setScenarios: db.prepare(`INSERT INTO mock_scenarios (name, state) SELECT key, value FROM json_each(?) WHERE true
      ON CONFLICT (name) DO UPDATE SET state = excluded.state`),
    clearScenarios: db.prepare('DELETE FROM mock_scenarios'),
  };
  const record = (text: unknown) => JSON.parse(String(text)) as StoredMock;

  return {
    endpoints: {
      async all() {
        const rows = await db.query('SELECT record FROM mock_endpoints');
        return rows.map((row) => record(row.record));
      },
      async get(name) {
        const [row] = await statements.endpoint.all(name);
        return row && record(row.record);
      },
      put: (r) => statements.putEndpoint.run(r.name, JSON.stringify(r)).then(() => {}),
      delete: async (name) => (await statements.deleteEndpoint.run(name)) > 0,
    },
    collections: {
      async load(name) {
        const [row] = await statements.loadCollection.all(name);
        return row && { seed: String(row.seed), value: String(row.value), version: Number(row.version) };
      },
      save: async (name, { seed, value }, expected) =>
        (expected === 0
          ? await statements.createCollection.run(name, seed, value)
          : await statements.replaceCollection.run(seed, value, name, expected)) > 0,
      drop: (name) => statements.dropCollection.run(name).then(() => {}),
    },
    stats: {
      load: (logSize) => loadStats(db.query, logSize),
      save: (batch) => {
        const entries = batch.flatMap(({ name, skipped, entries }) =>
          entries.map((entry, i) => ({ name, at: skipped + i + 1, entry })),
        );
        const counters = batch.map(({ name, hits, lastCall, sequence, keep }) => ({ name, hits, lastCall, sequence, keep }));
        return statements.saveStats.run(JSON.stringify(entries), JSON.stringify(counters)).then(() => {});
      },
      clearLog: (name) => statements.clearLog.run(name).then(() => {}),
      forget: (names) => statements.forget.run(JSON.stringify(names)).then(() => {}),
    },
    scenarios: {
      async all() {
        const rows = await db.query('SELECT name, state FROM mock_scenarios');
        return new Map(rows.map((row) => [String(row.name), String(row.state)]));
      },
      set: (states) => statements.setScenarios.run(JSON.stringify(Object.fromEntries(states))).then(() => {}),
      clear: () => statements.clearScenarios.run().then(() => {}),
    },
    where: db.file,
    close: () => db.close(),
  };
}

/** Cuts each log to its newest `logSize` entries (the size may have shrunk), then reads what is left. */
async function loadStats(query: Query, logSize: number): Promise<Map<string, SavedEndpoint>> {
  await query(
    `DELETE FROM mock_requests WHERE rowid IN (SELECT r.rowid FROM mock_requests r JOIN
      (SELECT name, MAX(seq) AS newest FROM mock_requests GROUP BY name) n ON r.name = n.name
      WHERE r.seq <= n.newest - ?)`,
    logSize,
  );
  const saved = new Map<string, SavedEndpoint>();
  const at = (name: string) => {
    let found = saved.get(name);
    if (!found) saved.set(name, (found = { hits: 0, lastCall: null, sequence: 0, entries: [] }));
    return found;
  };
  for (const row of await query('SELECT name, hits, last_call, sequence FROM mock_stats')) {
    Object.assign(at(String(row.name)), {
      hits: Number(row.hits),
      lastCall: row.last_call == null ? null : String(row.last_call),
      sequence: Number(row.sequence),
    });
  }
  // Keyset paging: each page starts after the last row of the one before, through the primary key.
  let after: [string, number] = ['', -1];
  for (;;) {
    const rows = await query(
      'SELECT name, seq, entry FROM mock_requests WHERE (name, seq) > (?, ?) ORDER BY name, seq LIMIT ?',
      ...after,
      LOAD_PAGE,
    );
    for (const row of rows) at(String(row.name)).entries.push({ seq: Number(row.seq), entry: String(row.entry) });
    if (rows.length < LOAD_PAGE) return saved;
    const last = rows[rows.length - 1]!;
    after = [String(last.name), Number(last.seq)];
  }
}

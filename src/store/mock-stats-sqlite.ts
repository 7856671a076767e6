import { preparePart, type Query } from './schema-part.js';

/**
 * The SQL behind the mock server's persisted counters and request logs, in two tables of our own
 * beside Keyv's. Every write is one statement taking one JSON parameter (read with json_each), so a
 * batch of any size is a single statement, with no bound-variable limit to chunk around. No
 * statement opens a transaction: Keyv shares this connection, and its writes must never be caught
 * in (or rolled back with) one of ours.
 */

export type SavedStats = { hits: number; lastCall: string | null; sequence: number };
/** One endpoint as saved: its counters and its newest log entries, oldest first, with their numbers. */
export type SavedEndpoint = SavedStats & { entries: { seq: number; entry: string }[] };

export type StatsRow = SavedStats & { name: string };
export type LogRow = { name: string; seq: number; entry: unknown };

/** Creates the tables when missing; refuses a file (named in the error) whose tables a newer version wrote. */
export async function prepareStatsTables(query: Query, file: string): Promise<void> {
  await preparePart(query, file, { part: 'mock-stats', version: 1, what: 'the request logs', create: createTables });
}

async function createTables(query: Query): Promise<void> {
  await query(
    'CREATE TABLE IF NOT EXISTS mock_stats (name TEXT PRIMARY KEY, hits INTEGER NOT NULL, last_call TEXT, ' +
      'sequence INTEGER NOT NULL)',
  );
  // Rowid table with the key as an index: entries reach 64 KiB, too large to cluster WITHOUT ROWID.
  await query(
    'CREATE TABLE IF NOT EXISTS mock_requests (name TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL, ' +
      'PRIMARY KEY (name, seq))',
  );
}

/** Rows a page of the log load holds: bounds the memory of one read however large the table is. */
const LOAD_PAGE = 5000;

/** Drops entries beyond `logSize` per endpoint (the size may have shrunk), then reads what is left. */
export async function loadSaved(query: Query, logSize: number): Promise<Map<string, SavedEndpoint>> {
  await query(
    'DELETE FROM mock_requests WHERE rowid IN (SELECT r.rowid FROM mock_requests r JOIN ' +
      '(SELECT name, MAX(seq) AS newest FROM mock_requests GROUP BY name) n ON r.name = n.name ' +
      'WHERE r.seq <= n.newest - ?)',
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

/**
 * Saves one batch: new log rows, then the counters, then prunes each endpoint's rows to those
 * numbered above its `cutoff`. In that order a crash between statements leaves extra rows (pruned
 * at the next load), never counters ahead of a log that lacks their requests. Rows may repeat
 * after a failed batch is retried: they replace themselves.
 */
export async function saveBatch(
  query: Query,
  batch: { rows: LogRow[]; stats: StatsRow[]; cutoffs: [name: string, cutoff: number][] },
): Promise<void> {
  if (batch.rows.length > 0) {
    await query(
      'INSERT OR REPLACE INTO mock_requests (name, seq, entry) ' +
        "SELECT value ->> '$.name', value ->> '$.seq', value -> '$.entry' FROM json_each(?)",
      JSON.stringify(batch.rows),
    );
  }
  if (batch.stats.length > 0) {
    // `WHERE true` tells the parser the ON CONFLICT belongs to the INSERT, not to a join in the SELECT.
    await query(
      'INSERT INTO mock_stats (name, hits, last_call, sequence) ' +
        "SELECT value ->> '$.name', value ->> '$.hits', value ->> '$.lastCall', value ->> '$.sequence' " +
        'FROM json_each(?) WHERE true ON CONFLICT (name) DO UPDATE SET hits = excluded.hits, ' +
        'last_call = excluded.last_call, sequence = excluded.sequence',
      JSON.stringify(batch.stats),
    );
  }
  if (batch.cutoffs.length > 0) {
    await query(
      'DELETE FROM mock_requests WHERE rowid IN (SELECT r.rowid FROM json_each(?) c JOIN mock_requests r ' +
        "ON r.name = c.value ->> '$[0]' AND r.seq <= c.value ->> '$[1]')",
      JSON.stringify(batch.cutoffs),
    );
  }
}

/** Empties an endpoint's log; its counters stay. */
export async function clearSavedLog(query: Query, name: string): Promise<void> {
  await query('DELETE FROM mock_requests WHERE name = ?', name);
}

/** Forgets everything saved for these endpoints (deleted ones, or rows left by a crash mid-delete). */
export async function deleteSaved(query: Query, names: string[]): Promise<void> {
  const list = JSON.stringify(names);
  await query('DELETE FROM mock_requests WHERE name IN (SELECT value FROM json_each(?))', list);
  await query('DELETE FROM mock_stats WHERE name IN (SELECT value FROM json_each(?))', list);
}

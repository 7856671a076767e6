import type { StatementRunner } from '../../store/postgres/client.js';
import { openPostgresEngine } from '../../store/postgres/feeds.js';
import type { Relay } from '../../store/relay.js';
import { readMockChange } from './changes.js';
import type { MockChange, MockEngine, SavedEndpoint } from './engine.js';
import { MOCK_TABLES } from './postgres-schema.js';
import type { StoredMock } from '../record/record.js';

/** Rows a page of the log load holds: bounds the memory of one read however large the table is. */
const LOAD_PAGE = 5000;
/** The channel every instance on a database notifies its endpoint and collection writes on. */
const MOCK_CHANNEL = 'snippetkit_mocks';

/** A statement's last part: the notice (parameter `n`) to the other instances, once per row written. */
const notify = (n: number) => `SELECT pg_notify('${MOCK_CHANNEL}', $${n})`;

// Every write to the logs first locks the endpoints' counter rows, in name order (byte order, as the
// column sorts): two saves of one endpoint take turns, and writers naming the same endpoints in any
// order never deadlock. A stats save is three statements of one transaction. The counters: hits
// added, the later lastCall kept, each row locked until commit. Then the entries, each numbered `at`
// past its log's newest: a statement of its own, whose snapshot is taken once the rows are locked, so
// it sees what another instance's save committed and the two never number alike. Then each log keeps
// its newest `keep` (a gap is left only by skipped requests, which memory no longer holds either).
const SAVE_COUNTERS = `INSERT INTO mock_stats (name, hits, last_call, sequence)
  SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[]) AS c(name, hits, last_call, sequence)
  ORDER BY name COLLATE "C"
  ON CONFLICT (name) DO UPDATE SET hits = mock_stats.hits + excluded.hits,
    last_call = greatest(mock_stats.last_call, excluded.last_call), sequence = excluded.sequence`;
// The entries go as one JSON list of {name, at, entry}, each entry its JSON text as a string (whose
// escapes, such as a NUL's, stay text; PostgreSQL refuses a NUL as a string of its own): pg's quoting
// of the same as a text[] took three times as long (2,000 endpoints x 100 entries: 13.3 s, now 4.3 s).
const SAVE_ENTRIES = `INSERT INTO mock_requests (name, seq, entry)
  SELECT e.name, coalesce((SELECT max(r.seq) FROM mock_requests r WHERE r.name = e.name), 0) + e.at, e.entry
  FROM json_to_recordset($1::json) AS e(name text, at bigint, entry text)`;
const SAVE_KEEP = `DELETE FROM mock_requests r USING unnest($1::text[], $2::bigint[]) AS k(name, keep)
  WHERE r.name = k.name AND r.seq <= (SELECT max(m.seq) FROM mock_requests m WHERE m.name = k.name) - k.keep`;
/** The same lock for the other writers to the logs (a clear, a forget). */
const LOCK_COUNTERS = 'SELECT name FROM mock_stats WHERE name = ANY($1::text[]) ORDER BY name FOR UPDATE';

/**
 * The mocks on PostgreSQL (postgres-schema.ts), shared by any number of instances: each write is
 * one statement or one transaction; counters are added to under a lock on their row, which also
 * numbers log entries apart; record and collection writes notify the others in their statement
 * (delivered at commit). Statements are prepared once per connection. A connection failure rejects
 * with StoreUnavailable.
 */
export async function openPostgresMocks(url: string, pool?: number): Promise<MockEngine & { relay: Relay }> {
  const { db, notice, ...feeds } = await openPostgresEngine<MockChange>(url, {
    pool,
    schema: MOCK_TABLES,
    changes: { channel: MOCK_CHANNEL, read: readMockChange },
    live: { channel: 'snippetkit_mocks_live', table: 'mock_relay' },
  });
  const rows = named(db.query);
  const record = (text: unknown) => JSON.parse(String(text)) as StoredMock;

  return {
    endpoints: {
      async all() {
        const found = await rows('all', 'SELECT record FROM mock_endpoints');
        return found.map((row) => record(row.record));
      },
      async get(name) {
        const [row] = await rows('endpoint', 'SELECT record FROM mock_endpoints WHERE name = $1', name);
        return row && record(row.record);
      },
      async put(r) {
        await rows('put_endpoint', `WITH saved AS (INSERT INTO mock_endpoints (name, record) VALUES ($1, $2)
            ON CONFLICT (name) DO UPDATE SET record = excluded.record RETURNING name)
          ${notify(3)} FROM saved`, r.name, JSON.stringify(r), notice({ endpoint: r.name }));
      },
      async delete(name) {
        const gone = await rows('delete_endpoint', `WITH gone AS (DELETE FROM mock_endpoints WHERE name = $1 RETURNING name)
          ${notify(2)} FROM gone`, name, notice({ endpoint: name }));
        return gone.length > 0;
      },
    },
    collections: {
      async load(name) {
        const [row] = await rows('collection', 'SELECT seed, value, version FROM mock_collections WHERE name = $1', name);
        return row && { seed: String(row.seed), value: String(row.value), version: Number(row.version) };
      },
      // From version 0 the row is created, from a later one replaced at that version; a statement that
      // writes no row notifies no one.
      async save(name, { seed, value }, expected) {
        const saved = expected === 0
          ? await rows('create_collection', `WITH saved AS (INSERT INTO mock_collections (name, seed, value, version)
                VALUES ($1, $2, $3, 1) ON CONFLICT (name) DO NOTHING RETURNING name)
              ${notify(4)} FROM saved`, name, seed, value, notice({ collection: name }))
          : await rows('replace_collection', `WITH saved AS (UPDATE mock_collections SET seed = $2, value = $3,
                version = version + 1 WHERE name = $1 AND version = $5 RETURNING name)
              ${notify(4)} FROM saved`, name, seed, value, notice({ collection: name }), expected);
        return saved.length > 0;
      },
      async drop(name) {
        await rows('drop_collection', `WITH gone AS (DELETE FROM mock_collections WHERE name = $1 RETURNING name)
          ${notify(2)} FROM gone`, name, notice({ collection: name }));
      },
    },
    stats: {
      async load(logSize) {
        await db.transaction(async (query) => {
          const run = named(query);
          await run('lock_all_counters', 'SELECT name FROM mock_stats ORDER BY name FOR UPDATE');
          await run('cut_logs', `DELETE FROM mock_requests r USING
              (SELECT name, max(seq) AS newest FROM mock_requests GROUP BY name) n
            WHERE r.name = n.name AND r.seq <= n.newest - $1`, logSize);
        });
        return db.transaction(readStats);
      },
      async save(batch) {
        if (batch.length === 0) return;
        const entries = batch.flatMap(({ name, skipped, entries }) =>
          entries.map((entry, i) => ({ name, at: skipped + i + 1, entry: JSON.stringify(entry) })),
        );
        await db.transaction(async (query) => {
          const run = named(query);
          await run('save_counters', SAVE_COUNTERS, ...columns(batch, (b) => [b.name, b.hits, b.lastCall, b.sequence]));
          if (entries.length > 0) await run('save_entries', SAVE_ENTRIES, JSON.stringify(entries));
          await run('save_keep', SAVE_KEEP, ...columns(batch, (b) => [b.name, b.keep]));
        });
      },
      clearLog: (name) =>
        db.transaction(async (query) => {
          const run = named(query);
          await run('lock_counters', LOCK_COUNTERS, [name]);
          await run('clear_log', 'DELETE FROM mock_requests WHERE name = $1', name);
        }),
      // A save of one of them in progress has committed its entries (seen by the deletes) by the time
      // the lock is had.
      forget: (names) =>
        db.transaction(async (query) => {
          const run = named(query);
          await run('lock_counters', LOCK_COUNTERS, names);
          await run('forget_counters', 'DELETE FROM mock_stats WHERE name = ANY($1::text[])', names);
          await run('forget_logs', 'DELETE FROM mock_requests WHERE name = ANY($1::text[])', names);
        }),
    },
    scenarios: {
      async all() {
        const found = await rows('scenarios', 'SELECT name, state FROM mock_scenarios');
        return new Map(found.map((row) => [String(row.name), String(row.state)]));
      },
      // One notice for the statement: PostgreSQL delivers identical payloads of a transaction once.
      async set(states) {
        await rows('set_scenarios', `WITH saved AS (INSERT INTO mock_scenarios (name, state)
            SELECT * FROM unnest($1::text[], $2::text[]) ORDER BY 1 ON CONFLICT (name) DO UPDATE SET state = excluded.state
            RETURNING name)
          ${notify(3)} FROM saved`, [...states.keys()], [...states.values()], notice({ scenarios: true }));
      },
      async clear() {
        await rows('clear_scenarios', `WITH gone AS (DELETE FROM mock_scenarios RETURNING name)
          ${notify(1)} FROM gone`, notice({ scenarios: true }));
      },
    },
    changes: feeds.changes,
    relay: feeds.relay,
    where: db.where,
    close: feeds.close,
  };
}

/** Runs statements prepared by name (once per connection). */
const named = (query: StatementRunner) => (name: string, text: string, ...values: unknown[]) =>
  query({ name: `mocks_${name}`, text, values });

/** Lists of one field each, for unnest: one statement for a batch of any size. */
function columns<T>(items: readonly T[], fields: (item: T) => readonly unknown[]): unknown[][] {
  const lists: unknown[][] = [];
  for (const item of items) fields(item).forEach((value, i) => (lists[i] ??= []).push(value));
  return lists;
}

/** Every counter and log entry, in one snapshot (a save between reads would count hits its entries miss). */
async function readStats(query: StatementRunner): Promise<Map<string, SavedEndpoint>> {
  await query({ text: 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY' });
  const run = named(query);
  const saved = new Map<string, SavedEndpoint>();
  const at = (name: string) => {
    let found = saved.get(name);
    if (!found) saved.set(name, (found = { hits: 0, lastCall: null, sequence: 0, entries: [] }));
    return found;
  };
  for (const row of await run('load_counters', 'SELECT name, hits, last_call, sequence FROM mock_stats')) {
    Object.assign(at(String(row.name)), {
      hits: Number(row.hits),
      lastCall: row.last_call == null ? null : String(row.last_call),
      sequence: Number(row.sequence),
    });
  }
  // Keyset paging: each page starts after the last row of the one before, through the primary key.
  let after: [string, number] = ['', -1];
  for (;;) {
    const found = await run('load_entries',
      'SELECT name, seq, entry FROM mock_requests WHERE (name, seq) > ($1, $2) ORDER BY name, seq LIMIT $3',
      ...after, LOAD_PAGE);
    for (const row of found) at(String(row.name)).entries.push({ seq: Number(row.seq), entry: String(row.entry) });
    if (found.length < LOAD_PAGE) return saved;
    const last = found[found.length - 1]!;
    after = [String(last.name), Number(last.seq)];
  }
}

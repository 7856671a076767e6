import { preparePart, type Query } from '../store/schema-part.js';
import type { SqliteKeyv } from '../store/sqlite.js';
import { summarize } from './summary.js';

/**
 * What a head keeps for the list: its latest revision's summary, and that lowercased for the filter
 * (SQLite's own lower() folds ASCII letters only; JavaScript's folds every script).
 */
export function listing(revision: { html: string; javascript: string; css: string }): { summary: string; folded: string } {
  const summary = summarize(revision.html, revision.javascript, revision.css);
  return { summary, folded: summary.toLowerCase() };
}

/** One bin as the list shows it: its latest revision, how many it keeps, when it was saved, what it holds. */
export type BinRow = { bin: string; latest: number; revisionCount: number; updated: string; summary: string };

export type PageQuery = {
  /** Bins whose id or summary holds this text, in any case; all when empty. */
  q?: string;
  offset: number;
  limit: number;
};

/** A page of bins, last saved first, and how many bins match in all. */
export type BinPage = { rows: BinRow[]; total: number };

const field = (row: string, name: string) => `json_extract(${row}.value, '$.value.${name}')`;

/**
 * `bin_list`: one compact row per head, kept in step with the heads by triggers, so each save updates
 * it in the same statement that writes the head. Heads sit between their revisions' rows in `keyv`,
 * so reading them there touches every revision's pages: an index on `keyv` still took 200+ ms to count
 * or filter 100,000 bins; this table's index takes 10-30 ms.
 */
function createStatements(prefix: string): { schema: string[]; fill: string } {
  // A head is a key without '/'; keys starting with ':' are the store's own records (the template), no bin's.
  const head = (row: string) =>
    `${row}.key GLOB '${prefix}*' AND ${row}.key NOT GLOB '${prefix}*/*' AND ${row}.key NOT GLOB '${prefix}:*'`;
  // An upsert, not INSERT OR REPLACE: a trigger's OR REPLACE gives way to the outer statement's
  // conflict rule, so the store's head upsert would fail on a bin already listed.
  const upsert = `INSERT INTO bin_list (bin, updated, latest, summary, folded) VALUES (substr(NEW.key, ${prefix.length + 1}),
    ${field('NEW', 'updated')}, ${field('NEW', 'latest')}, ${field('NEW', 'summary')}, ${field('NEW', 'folded')})
    ON CONFLICT (bin) DO UPDATE SET updated = excluded.updated, latest = excluded.latest, summary = excluded.summary,
      folded = excluded.folded`;
  const schema = [
    `CREATE TABLE bin_list (bin TEXT PRIMARY KEY, updated TEXT NOT NULL, latest INTEGER NOT NULL,
      summary TEXT, folded TEXT) WITHOUT ROWID`,
    // Covering for counting, skipping to a late page and filtering: they read this index alone, never
    // the table (3-7 times faster at 100,000 bins); only a page's own rows are looked up for their summary.
    'CREATE INDEX bin_list_by_updated ON bin_list (updated, bin, latest, folded)',
    `CREATE TRIGGER bin_list_insert AFTER INSERT ON keyv WHEN ${head('NEW')} BEGIN ${upsert}; END`,
    `CREATE TRIGGER bin_list_update AFTER UPDATE ON keyv WHEN ${head('NEW')} BEGIN ${upsert}; END`,
    `CREATE TRIGGER bin_list_delete AFTER DELETE ON keyv WHEN ${head('OLD')} BEGIN
      DELETE FROM bin_list WHERE bin = substr(OLD.key, ${prefix.length + 1}); END`,
  ];
  // The heads already there (a file from before this table).
  const fill = `INSERT INTO bin_list (bin, updated, latest, summary, folded) SELECT substr(h.key, ${prefix.length + 1}),
    ${field('h', 'updated')}, ${field('h', 'latest')}, ${field('h', 'summary')}, ${field('h', 'folded')}
    FROM keyv h WHERE ${head('h')}`;
  return { schema, fill };
}

/**
 * Runs `work` in one transaction. Only while opening: the connection is shared, and nothing else uses
 * it before the store is returned.
 */
async function transaction(query: Query, work: () => Promise<void>): Promise<void> {
  await query('BEGIN');
  try {
    await work();
    await query('COMMIT');
  } catch (err) {
    await query('ROLLBACK');
    throw err;
  }
}

/**
 * Heads written before summaries were kept on them get theirs from their latest revision, once, at
 * open (the table only: the head gets its own at its next save). A start cut short is finished by the next.
 */
async function backfillSummaries(db: SqliteKeyv): Promise<void> {
  for (;;) {
    const rows = await db.query(
      `SELECT l.bin, ${field('r', 'html')} AS html, ${field('r', 'javascript')} AS javascript, ${field('r', 'css')} AS css
        FROM bin_list l LEFT JOIN keyv r ON r.key = ? || l.bin || '/' || l.latest WHERE l.folded IS NULL LIMIT 1000`,
      db.prefix,
    );
    if (rows.length === 0) return;
    const summaries = rows.map((row) => ({
      bin: row.bin,
      ...listing({ html: String(row.html ?? ''), javascript: String(row.javascript ?? ''), css: String(row.css ?? '') }),
    }));
    // One statement per batch: a query per row made this 12 s at 100,000 bins, mostly round trips.
    await db.query(
      `UPDATE bin_list SET summary = json_extract(s.value, '$.summary'), folded = json_extract(s.value, '$.folded')
        FROM json_each(?) s WHERE bin_list.bin = json_extract(s.value, '$.bin')`,
      JSON.stringify(summaries),
    );
  }
}

/** Makes the store's file ready for paged listing: the table (schema part `bin-list`), summaries of old heads. */
export async function prepareListing(db: SqliteKeyv): Promise<void> {
  // The prefix is written into the triggers' SQL, so it must be nothing but a namespace.
  if (!/^\w+:$/.test(db.prefix)) throw new Error(`unexpected namespace prefix ${db.prefix}`);
  const { schema, fill } = createStatements(db.prefix);
  await preparePart(db.query, db.file, {
    part: 'bin-list',
    version: 1,
    what: 'the bin list',
    // Table, triggers and the first fill in one transaction: a table that exists is a table filled.
    create: async (query) => {
      const [exists] = await query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'bin_list'");
      if (exists) return;
      await transaction(query, async () => {
        for (const sql of [...schema, fill]) await query(sql);
      });
    },
  });
  await backfillSummaries(db);
}

/** One page of the bins that still have a revision, last saved first (ties by id), with the total. */
export async function pageBins(db: SqliteKeyv, { q = '', offset, limit }: PageQuery): Promise<BinPage> {
  // instr, not LIKE: no wildcards to escape, and both sides are folded already (ids are lowercase).
  // `param` is the filter's number among the query's parameters.
  const matching = (param: number) =>
    `FROM bin_list WHERE latest > 0${q ? ` AND (instr(bin, ?${param}) > 0 OR instr(folded, ?${param}) > 0)` : ''}`;
  const filter = q ? [q.toLowerCase()] : [];
  // The page's ids come from the index alone (the rows skipped to reach it are never read); then
  // their summaries, and their revisions counted over the primary key's range `<bin>/` .. `<bin>0`
  // (rows above the head, left by a delete that crashed half-way, are not the bin's). CROSS JOIN keeps
  // SQLite from scanning every row of `l` instead (it did: 45 ms rather than 0.3 at 100,000 bins).
  const rows = await db.query(
    `SELECT l.bin, l.updated, l.latest, l.summary, (SELECT count(*) FROM keyv r
        WHERE r.key >= ?1 || l.bin || '/' AND r.key < ?1 || l.bin || '0'
        AND CAST(substr(r.key, length(?1 || l.bin) + 2) AS INTEGER) <= l.latest) AS revisionCount
      FROM (SELECT bin ${matching(4)} ORDER BY updated DESC, bin DESC LIMIT ?2 OFFSET ?3) page
      CROSS JOIN bin_list l ON l.bin = page.bin
      ORDER BY l.updated DESC, l.bin DESC`,
    db.prefix,
    limit,
    offset,
    ...filter,
  );
  const [count] = await db.query(`SELECT count(*) AS total ${matching(1)}`, ...filter);
  return {
    total: Number(count?.total ?? 0),
    rows: rows.map((row) => ({
      bin: String(row.bin),
      latest: Number(row.latest),
      revisionCount: Number(row.revisionCount),
      updated: String(row.updated),
      summary: String(row.summary ?? ''),
    })),
  };
}

import { transaction, type Query, type SchemaPart } from '../../store/schema-part.js';
import { listing } from './listing.js';

/** The failure of a conditional write (engine.ts) whose condition no longer held. */
export const MOVED = 'bin changed meanwhile';

/**
 * The bins' own tables. Heads are small rows clustered on the id (WITHOUT ROWID); revisions keep a
 * rowid, since their panels can be far larger than the 1/20 of a page WITHOUT ROWID suits.
 * Two views take a whole save or delete as one INSERT, their triggers writing both tables in that
 * one statement: it lands whole or not at all, with no transaction held open across calls on a
 * connection every request shares.
 */
const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS bin_heads (bin TEXT PRIMARY KEY, latest INTEGER NOT NULL, next INTEGER NOT NULL,
    created TEXT NOT NULL, updated TEXT NOT NULL, summary TEXT NOT NULL, folded TEXT NOT NULL) WITHOUT ROWID`,
  // Covering for counting, skipping to a late page and filtering: the list reads this index alone,
  // and only a page's own rows are looked up for their summary.
  'CREATE INDEX IF NOT EXISTS bin_heads_by_updated ON bin_heads (updated, bin, latest, folded)',
  `CREATE TABLE IF NOT EXISTS bin_revisions (bin TEXT NOT NULL, rev INTEGER NOT NULL, html TEXT NOT NULL,
    javascript TEXT NOT NULL, css TEXT NOT NULL, settings TEXT NOT NULL, created TEXT NOT NULL, PRIMARY KEY (bin, rev))`,
  // Version 1's view took a `fresh` flag: its triggers are replaced, not kept.
  'DROP TRIGGER IF EXISTS bin_save_insert',
  'DROP VIEW IF EXISTS bin_save',
  'DROP TRIGGER IF EXISTS bin_removal_insert',
  'DROP VIEW IF EXISTS bin_removal',
  `CREATE VIEW bin_save AS SELECT NULL AS bin, NULL AS html, NULL AS javascript, NULL AS css,
    NULL AS settings, NULL AS created, NULL AS latest, NULL AS next, NULL AS head_created, NULL AS summary, NULL AS folded,
    NULL AS expected`,
  // A save holds only on the head it was built on: `expected` is that head's `next`, or NULL for a bin
  // that must not exist yet (a random id is claimed without a read before). Otherwise the statement
  // fails whole and the store reads again. An upsert, not INSERT OR REPLACE: a trigger's OR REPLACE
  // would give way to the outer statement's rule.
  `CREATE TRIGGER bin_save_insert INSTEAD OF INSERT ON bin_save BEGIN
    SELECT RAISE(ABORT, '${MOVED}') WHERE CASE WHEN NEW.expected IS NULL
      THEN EXISTS (SELECT 1 FROM bin_heads WHERE bin = NEW.bin)
      ELSE NOT EXISTS (SELECT 1 FROM bin_heads WHERE bin = NEW.bin AND next = NEW.expected) END;
    INSERT INTO bin_revisions (bin, rev, html, javascript, css, settings, created)
      VALUES (NEW.bin, NEW.latest, NEW.html, NEW.javascript, NEW.css, NEW.settings, NEW.created);
    INSERT INTO bin_heads (bin, latest, next, created, updated, summary, folded)
      VALUES (NEW.bin, NEW.latest, NEW.next, NEW.head_created, NEW.created, NEW.summary, NEW.folded)
      ON CONFLICT (bin) DO UPDATE SET latest = excluded.latest, next = excluded.next, updated = excluded.updated,
        summary = excluded.summary, folded = excluded.folded;
  END`,
  // Deleting the latest holds only while it is still the latest, and the revision the head moves to is there.
  `CREATE VIEW bin_removal AS SELECT NULL AS bin, NULL AS rev, NULL AS latest, NULL AS updated,
    NULL AS summary, NULL AS folded`,
  `CREATE TRIGGER bin_removal_insert INSTEAD OF INSERT ON bin_removal BEGIN
    SELECT RAISE(ABORT, '${MOVED}') WHERE NOT EXISTS (SELECT 1 FROM bin_heads WHERE bin = NEW.bin AND latest = NEW.rev)
      OR (NEW.latest > 0 AND NOT EXISTS (SELECT 1 FROM bin_revisions WHERE bin = NEW.bin AND rev = NEW.latest));
    DELETE FROM bin_revisions WHERE bin = NEW.bin AND rev = NEW.rev;
    UPDATE bin_heads SET latest = NEW.latest, updated = NEW.updated, summary = NEW.summary, folded = NEW.folded
      WHERE bin = NEW.bin;
  END`,
  // The previous build kept a list table by triggers on Keyv's table; these tables replace it.
  'DROP TRIGGER IF EXISTS bin_list_insert',
  'DROP TRIGGER IF EXISTS bin_list_update',
  'DROP TRIGGER IF EXISTS bin_list_delete',
  'DROP TABLE IF EXISTS bin_list',
  "DELETE FROM snippetkit_schema WHERE part = 'bin-list'",
];

/** Keyv's rows of the bins namespace, but for its own records (`bins::template`), which stay. */
const oldRows = (key: string) => `${key} >= 'bins:' AND ${key} < 'bins;' AND ${key} NOT GLOB 'bins::*'`;
const oldHeads = (key: string) => `${oldRows(key)} AND ${key} NOT GLOB 'bins:*/*'`;
const BATCH = 1000;

/**
 * The file's bin tables (schema part `bins`): creates them, and moves bins an earlier
 * release kept as Keyv records (`bins:<bin>` heads, `bins:<bin>/<rev>` revisions) into them, all in
 * one transaction with the old rows' deletion, so a crash leaves the old layout whole. Revisions
 * above their head (a delete cut short) are not moved. Nothing scans the tables on a later start.
 */
export const BIN_PART: SchemaPart = {
  part: 'bins',
  version: 2,
  what: 'the bins',
  create: async (db) => {
    const [keyv] = await db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'keyv'");
    const [old] = keyv ? await db.query(`SELECT 1 FROM keyv WHERE ${oldRows('key')} LIMIT 1`) : [];
    // Nothing but an earlier release writes the old rows, and this server holds the file's lock.
    await transaction(db, SCHEMA, old ? () => migrate(db.query) : undefined);
  },
};

async function migrate(query: Query): Promise<void> {
  const head = (name: string) => `h.value ->> '$.value.${name}'`;
  await query(
    `INSERT INTO bin_revisions (bin, rev, html, javascript, css, settings, created)
      SELECT substr(h.key, 6), CAST(substr(r.key, length(h.key) + 2) AS INTEGER), coalesce(r.value ->> '$.value.html', ''),
        coalesce(r.value ->> '$.value.javascript', ''), coalesce(r.value ->> '$.value.css', ''), coalesce(r.value -> '$.value.settings', '{}'),
        r.value ->> '$.value.created'
      FROM keyv h JOIN keyv r ON r.key >= h.key || '/' AND r.key < h.key || '0'
      WHERE ${oldHeads('h.key')}
        AND CAST(substr(r.key, length(h.key) + 2) AS INTEGER) <= ${head('latest')}`,
  );
  // Heads in batches, each with its summary (kept by newer heads, made from the latest revision for older).
  // Each batch starts after the last key of the one before, as the lower end of the key range (a
  // separate `h.key > ?` beside the range's own bound made every batch scan from the first key).
  for (let after = 'bins:'; ; ) {
    const rows = await query(
      `SELECT h.key, substr(h.key, 6) AS bin, h.value ->> '$.value' AS head, r.html, r.javascript, r.css
        FROM keyv h LEFT JOIN bin_revisions r ON r.bin = substr(h.key, 6) AND r.rev = ${head('latest')}
        WHERE h.key > ? AND h.key < 'bins;' AND h.key NOT GLOB 'bins::*' AND h.key NOT GLOB 'bins:*/*'
        ORDER BY h.key LIMIT ${BATCH}`,
      after,
    );
    if (rows.length === 0) break;
    after = String(rows[rows.length - 1]!.key);
    const heads = rows.map((row) => {
      const old = JSON.parse(String(row.head)) as Record<string, unknown>;
      const shown = { html: String(row.html ?? ''), javascript: String(row.javascript ?? ''), css: String(row.css ?? '') };
      const kept = typeof old.summary === 'string' && typeof old.folded === 'string';
      return { ...old, bin: row.bin, ...(kept ? {} : listing(shown)) };
    });
    await query(
      `INSERT INTO bin_heads (bin, latest, next, created, updated, summary, folded)
        SELECT value ->> '$.bin', value ->> '$.latest', value ->> '$.next', value ->> '$.created',
          value ->> '$.updated', value ->> '$.summary', value ->> '$.folded' FROM json_each(?)`,
      JSON.stringify(heads),
    );
  }
  await query(`DELETE FROM keyv WHERE ${oldRows('key')}`);
}

import type { Row } from '../../store/postgres/client.js';
import { openPostgresEngine } from '../../store/postgres/feeds.js';
import { readBinChange } from './changes.js';
import type { BinEngine, Change, Head } from './engine.js';
import { HEAD_COLUMNS as HEAD, REVISION_COLUMNS as REVISION, revisionsByBin, toBinRow, toHead, toPanels, toRevision } from './rows.js';
import { BIN_TABLES } from './postgres-schema.js';
import { DEFAULT_SORT, type Sort } from './listing.js';
import type { Template } from './records.js';

/** The channel every instance on a database notifies its bin writes on. */
const BIN_CHANNEL = 'snippetkit_bins';
/** A statement's last part: the notice (parameter `n`) to the other instances, once per row written. */
const notify = (n: number) => `SELECT pg_notify('${BIN_CHANNEL}', $${n})`;

// A save: the head (updated only if its next is still $13, or inserted only if the bin has none,
// created $13), the revision only if the head was written, and the notice, in one statement.
const SAVE_REVISION = `INSERT INTO bin_revisions (bin, rev, html, javascript, css, settings, created)
  SELECT bin, latest, $7, $8, $9, $10, $11 FROM head`;
const SAVE = `WITH head AS (UPDATE bin_heads SET latest = $2, next = $3, updated = $4, summary = $5, folded = $6
    WHERE bin = $1 AND next = $13 RETURNING bin, latest),
  revision AS (${SAVE_REVISION})
  ${notify(12)} FROM head`;
const CLAIM = `WITH head AS (INSERT INTO bin_heads (bin, latest, next, updated, summary, folded, created)
    VALUES ($1, $2, $3, $4, $5, $6, $13) ON CONFLICT (bin) DO NOTHING RETURNING bin, latest),
  revision AS (${SAVE_REVISION})
  ${notify(12)} FROM head`;

/**
 * The bins on PostgreSQL (postgres-schema.ts), shared by any number of instances: every write is
 * one statement, conditional on the head the caller read (so two instances never give one number
 * twice), and notifies the others in that statement (delivered at commit). Statements are prepared
 * once per connection. A connection failure rejects with StoreUnavailable.
 */
export async function openPostgresBins(url: string, pool?: number): Promise<BinEngine> {
  const { db, notice, ...feeds } = await openPostgresEngine<Change>(url, {
    pool,
    schema: BIN_TABLES,
    changes: { channel: BIN_CHANNEL, read: readBinChange },
    live: { channel: 'snippetkit_bins_live', table: 'bin_relay' },
  });
  const rows = (name: string, text: string, ...values: unknown[]) => db.query({ name: `bins_${name}`, text, values });

  const page = async (filter: string | undefined, { by, order }: Sort, limit: number, offset: number) => {
    const matching = `FROM bin_heads h WHERE h.latest > 0${filter === undefined ? '' : ' AND (strpos(h.bin, $1) > 0 OR strpos(h.folded, $1) > 0)'}`;
    const params = filter === undefined ? [] : [filter];
    const kind = filter === undefined ? 'all' : 'filtered';
    const dir = order === 'asc' ? 'ASC' : 'DESC';
    // By time (the partial index, either way) or id (the primary key); by revisions, every matching
    // head's revisions are counted (from the revisions' primary key) to sort them.
    const sorted = by === 'updated' ? `h.updated ${dir}, h.bin ${dir}` : by === 'name' ? `h.bin ${dir}` : `revision_count ${dir}, h.bin ${dir}`;
    const [found, [count]] = await Promise.all([
      rows(`page_${kind}_${by}_${order}`, `SELECT h.bin, h.updated, h.latest, h.summary,
          (SELECT count(*)::int FROM bin_revisions r WHERE r.bin = h.bin) AS revision_count
        ${matching} ORDER BY ${sorted} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        ...params, limit, offset),
      rows(`count_${kind}`, `SELECT count(*)::int AS total ${matching}`, ...params),
    ]);
    return { found, total: Number(count?.total ?? 0) };
  };

  return {
    async head(bin) {
      const [row] = await rows('head', `SELECT ${HEAD} FROM bin_heads h WHERE h.bin = $1`, bin);
      return row && toHead(row);
    },
    async read(bin, rev) {
      // The revision joins on the head's own latest when no number is asked for: one lookup either way.
      const [row] = await rows('read', `SELECT ${HEAD}, ${REVISION} FROM bin_heads h
        LEFT JOIN bin_revisions r ON r.bin = h.bin AND r.rev = coalesce($2::integer, h.latest) WHERE h.bin = $1`,
        bin, rev ?? null);
      if (!row) return undefined;
      return { head: toHead(row), ...(row.created == null ? {} : { revision: toRevision(row) }) };
    },
    async revision(bin, rev) {
      const [row] = await rows('revision', `SELECT ${REVISION} FROM bin_revisions r WHERE r.bin = $1 AND r.rev = $2`, bin, rev);
      return row && toRevision(row);
    },
    async before(bin, rev) {
      const [row] = await rows('before', `SELECT r.rev, ${REVISION} FROM bin_revisions r WHERE r.bin = $1 AND r.rev < $2
        ORDER BY r.rev DESC LIMIT 1`, bin, rev);
      return row && { ...toRevision(row), rev: Number(row.rev) };
    },
    async save(bin, r, h, expected) {
      const fresh = expected === undefined;
      const written = await rows(fresh ? 'claim' : 'save', fresh ? CLAIM : SAVE, bin, h.latest, h.next, h.updated,
        h.summary, h.folded, r.html, r.javascript, r.css, JSON.stringify(r.settings), r.created, notice({ bin }),
        fresh ? h.created : expected);
      return written.length > 0;
    },
    // Deletes lock the head first, so two at once on one bin take turns and each checks what the other
    // left: deleting the latest as another deletes the revision it would move to could not leave a head
    // on a revision that is gone (one statement's conditions would read a snapshot from before the other).
    remove: (bin, rev, h) =>
      db.transaction(async (query) => {
        const run = (name: string, text: string, ...values: unknown[]) => query({ name: `bins_${name}`, text, values });
        const [head] = await run('lock_head', 'SELECT latest FROM bin_heads WHERE bin = $1 FOR UPDATE', bin);
        if (!head || (Number(head.latest) === rev) !== Boolean(h)) return false;
        if (h && h.latest > 0) {
          const [there] = await run('exists', 'SELECT 1 FROM bin_revisions WHERE bin = $1 AND rev = $2', bin, h.latest);
          if (!there) return false;
        }
        const gone = await run('delete', 'DELETE FROM bin_revisions WHERE bin = $1 AND rev = $2 RETURNING rev', bin, rev);
        if (!h && gone.length === 0) return false;
        if (h) {
          await run('move_head', 'UPDATE bin_heads SET latest = $2, updated = $3, summary = $4, folded = $5 WHERE bin = $1',
            bin, h.latest, h.updated, h.summary, h.folded);
        }
        await run('notify_removal', `SELECT pg_notify('${BIN_CHANNEL}', $1)`, notice({ bin, rev }));
        return true;
      }),
    async revisions(bin) {
      const found = await rows('revisions', 'SELECT rev, created FROM bin_revisions WHERE bin = $1 ORDER BY rev DESC', bin);
      return found.map((row) => ({ rev: Number(row.rev), created: String(row.created) }));
    },
    async everything() {
      // One snapshot for both: a save between them would otherwise show a revision its head does not count.
      const [headRows, revisionRows] = await db.transaction(async (query) => {
        await query({ text: 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY' });
        return [
          await query({ text: `SELECT h.bin, ${HEAD} FROM bin_heads h` }),
          await query({ text: `SELECT r.bin, r.rev, ${REVISION} FROM bin_revisions r ORDER BY r.bin, r.rev DESC` }),
        ];
      });
      const heads = new Map<string, Head>();
      for (const row of headRows) heads.set(String(row.bin), toHead(row));
      return { heads, revisions: revisionsByBin(revisionRows) };
    },
    async page({ q = '', sort = DEFAULT_SORT, offset, limit }) {
      // strpos, not LIKE: no wildcards to escape, and both sides are folded already (ids are lowercase).
      const { found, total } = await page(q ? q.toLowerCase() : undefined, sort, limit, offset);
      return {
        total,
        rows: found.map(toBinRow),
      };
    },
    template: {
      async get() {
        const [row] = await rows('template', 'SELECT html, javascript, css, settings, updated FROM bin_template');
        return row && toTemplate(row);
      },
      async set(t) {
        await rows('template_set', `WITH saved AS (INSERT INTO bin_template (html, javascript, css, settings, updated)
            VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO UPDATE SET html = excluded.html,
              javascript = excluded.javascript, css = excluded.css, settings = excluded.settings, updated = excluded.updated
            RETURNING id)
          ${notify(6)} FROM saved`, t.html, t.javascript, t.css, JSON.stringify(t.settings), t.updated, notice({ template: true }));
      },
      async clear() {
        await rows('template_clear', `WITH gone AS (DELETE FROM bin_template RETURNING id) ${notify(1)} FROM gone`,
          notice({ template: true }));
      },
    },
    changes: feeds.changes,
    relay: feeds.relay,
    where: db.where,
    close: feeds.close,
  };
}

function toTemplate(row: Row): Template {
  return { ...toPanels(row), updated: String(row.updated) };
}

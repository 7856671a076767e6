import { openSqliteDb, type SqliteDb } from '../../store/sqlite-db.js';
import { prepareParts } from '../../store/schema-part.js';
import type { BinEngine, Head, TemplateRecord } from './engine.js';
import { HEAD_COLUMNS as HEAD, REVISION_COLUMNS as REVISION, revisionsByBin, toBinRow, toHead, toRevision } from './rows.js';
import { BIN_PART, MOVED } from './sqlite-schema.js';
import { DEFAULT_SORT, type Sort } from './listing.js';

/**
 * The bins on SQLite (sqlite-schema.ts), through a connection of our own beside Keyv's (which
 * keeps the template, `template`): WAL lets both share the file, and the lock (lock.ts) keeps out
 * other servers, so there is no change feed. Every statement is prepared once; a save or delete is
 * one statement, a read one statement.
 */
export async function openSqliteBins(file: string, template: TemplateRecord): Promise<BinEngine> {
  const db = await openSqliteDb(file);
  try {
    await prepareParts(db, file, [BIN_PART]);
  } catch (err) {
    await db.close();
    throw err;
  }
  const statements = {
    head: db.prepare(`SELECT ${HEAD} FROM bin_heads h WHERE h.bin = ?`),
    // The revision joins on the head's own latest when no number is asked for: one lookup either way.
    read: db.prepare(`SELECT ${HEAD}, ${REVISION} FROM bin_heads h
      LEFT JOIN bin_revisions r ON r.bin = h.bin AND r.rev = coalesce(?2, h.latest) WHERE h.bin = ?1`),
    revision: db.prepare(`SELECT ${REVISION} FROM bin_revisions r WHERE r.bin = ? AND r.rev = ?`),
    before: db.prepare(`SELECT r.rev, ${REVISION} FROM bin_revisions r WHERE r.bin = ? AND r.rev < ?
      ORDER BY r.rev DESC LIMIT 1`),
    save: db.prepare(`INSERT INTO bin_save (bin, html, javascript, css, settings, created, latest, next, head_created,
      summary, folded, expected) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    // An older revision only: one that became the latest meanwhile is deleted as the latest.
    removeOne: db.prepare(`DELETE FROM bin_revisions WHERE bin = ?1 AND rev = ?2
      AND NOT EXISTS (SELECT 1 FROM bin_heads WHERE bin = ?1 AND latest = ?2)`),
    removeLatest: db.prepare(`INSERT INTO bin_removal (bin, rev, latest, updated, summary, folded)
      VALUES (?, ?, ?, ?, ?, ?)`),
    revisions: db.prepare('SELECT rev, created FROM bin_revisions WHERE bin = ? ORDER BY rev DESC'),
  };
  const page = pageStatements(db.prepare);

  return {
    async head(bin) {
      const [row] = await statements.head.all(bin);
      return row && toHead(row);
    },
    async read(bin, rev) {
      const [row] = await statements.read.all(bin, rev ?? null);
      if (!row) return undefined;
      return { head: toHead(row), ...(row.created == null ? {} : { revision: toRevision(row) }) };
    },
    async revision(bin, rev) {
      const [row] = await statements.revision.all(bin, rev);
      return row && toRevision(row);
    },
    async before(bin, rev) {
      const [row] = await statements.before.all(bin, rev);
      return row && { ...toRevision(row), rev: Number(row.rev) };
    },
    save: (bin, r, h, expected) =>
      held(statements.save.run(bin, r.html, r.javascript, r.css, JSON.stringify(r.settings), r.created, h.latest,
        h.next, h.created, h.summary, h.folded, expected ?? null)),
    async remove(bin, rev, h) {
      if (h) return held(statements.removeLatest.run(bin, rev, h.latest, h.updated, h.summary, h.folded));
      return (await statements.removeOne.run(bin, rev)) > 0;
    },
    async revisions(bin) {
      const rows = await statements.revisions.all(bin);
      return rows.map((row) => ({ rev: Number(row.rev), created: String(row.created) }));
    },
    async everything() {
      const heads = new Map<string, Head>();
      for (const row of await db.query(`SELECT h.bin, ${HEAD} FROM bin_heads h`)) heads.set(String(row.bin), toHead(row));
      const rows = await db.query(`SELECT r.bin, r.rev, ${REVISION} FROM bin_revisions r ORDER BY r.bin, r.rev DESC`);
      return { heads, revisions: revisionsByBin(rows) };
    },
    page: async ({ q = '', sort = DEFAULT_SORT, offset, limit }) => {
      const filter = q ? [q.toLowerCase()] : [];
      const statement = page(sort, Boolean(q));
      const rows = await statement.rows.all(limit, offset, ...filter);
      const [count] = await statement.count.all(...filter);
      return {
        total: Number(count?.total ?? 0),
        rows: rows.map(toBinRow),
      };
    },
    template,
    where: file,
    close: () => db.close(),
  };
}

/** True once a conditional write lands; false when its trigger found the bin moved on (nothing written). */
async function held(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (err) {
    if (err instanceof Error && err.message.endsWith(MOVED)) return false;
    throw err;
  }
}

/**
 * The list's statements, by order and with or without the filter, each prepared when first asked for:
 * a page's rows (limit ?1, offset ?2, filter ?3) and the total (filter ?1).
 */
function pageStatements(prepare: SqliteDb['prepare']) {
  // instr, not LIKE: no wildcards to escape, and both sides are folded already (ids are lowercase).
  const matching = (param: string) =>
    `FROM bin_heads WHERE latest > 0${param ? ` AND (instr(bin, ${param}) > 0 OR instr(folded, ${param}) > 0)` : ''}`;
  const count = (param: string) => `(SELECT count(*) FROM bin_revisions r WHERE r.bin = ${param}) `;
  // The page's ids come first, from the covering index alone when the order is by time or id (the rows
  // skipped to reach it are never read); CROSS JOIN keeps SQLite from scanning every head instead.
  // By revisions, every matching head's revisions are counted (their primary key's index alone) to sort.
  const rows = ({ by, order }: Sort, param: string) => {
    const dir = order === 'asc' ? 'ASC' : 'DESC';
    const key = by === 'updated' ? 'updated' : by === 'revisions' ? 'revisions' : undefined;
    const inner = key ? `${key} ${dir}, bin ${dir}` : `bin ${dir}`;
    const outer = key ? `page.${key} ${dir}, page.bin ${dir}` : `page.bin ${dir}`;
    const revisions = by === 'revisions' ? `, ${count('bin_heads.bin')}AS revisions` : '';
    return `SELECT l.bin, l.updated, l.latest, l.summary, ${count('l.bin')}AS revision_count
      FROM (SELECT bin, updated${revisions} ${matching(param)} ORDER BY ${inner} LIMIT ?1 OFFSET ?2) page
      CROSS JOIN bin_heads l ON l.bin = page.bin
      ORDER BY ${outer}`;
  };
  const counts = { all: prepare(`SELECT count(*) AS total ${matching('')}`), filtered: prepare(`SELECT count(*) AS total ${matching('?1')}`) };
  const prepared = new Map<string, { rows: ReturnType<SqliteDb['prepare']>; count: ReturnType<SqliteDb['prepare']> }>();
  return (sort: Sort, filtered: boolean) => {
    const name = `${sort.by} ${sort.order} ${filtered}`;
    let statement = prepared.get(name);
    if (!statement) {
      statement = { rows: prepare(rows(sort, filtered ? '?3' : '')), count: filtered ? counts.filtered : counts.all };
      prepared.set(name, statement);
    }
    return statement;
  };
}

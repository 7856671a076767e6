import type { Head } from './engine.js';
import type { BinRow } from './listing.js';
import type { Revision, Settings } from './records.js';

/** A row as an engine's client gives it: column (or hash field) names to values. */
export type Row = Record<string, unknown>;

/** A head's and a revision's columns as the SQL engines select them, from `bin_heads h` and `bin_revisions r`. */
export const HEAD_COLUMNS = 'h.latest, h.next, h.created AS head_created, h.updated, h.summary, h.folded';
export const REVISION_COLUMNS = 'r.html, r.javascript, r.css, r.settings, r.created';

/**
 * A head from its row; `created` names the field of its creation time (`head_created` where a
 * revision's `created` shares the row).
 */
export function toHead(row: Row, created = 'head_created'): Head {
  return {
    latest: Number(row.latest),
    next: Number(row.next),
    created: String(row[created]),
    updated: String(row.updated),
    summary: String(row.summary),
    folded: String(row.folded),
  };
}

/** The panels and settings of a revision's or the template's row. */
export function toPanels(row: Row): Omit<Revision, 'created'> {
  return {
    html: String(row.html),
    javascript: String(row.javascript),
    css: String(row.css),
    settings: JSON.parse(String(row.settings)) as Settings,
  };
}

export function toRevision(row: Row): Revision {
  return { ...toPanels(row), created: String(row.created) };
}

/** A list page's row: the head's columns and `revision_count`. */
export function toBinRow(row: Row): BinRow {
  return {
    bin: String(row.bin),
    latest: Number(row.latest),
    revisionCount: Number(row.revision_count),
    updated: String(row.updated),
    summary: String(row.summary),
  };
}

/** Rows of `bin`, `rev` and a revision's columns, grouped by bin in the order given. */
export function revisionsByBin(rows: Row[]): Map<string, (Revision & { rev: number })[]> {
  const revisions = new Map<string, (Revision & { rev: number })[]>();
  for (const row of rows) {
    const bin = String(row.bin);
    const list = revisions.get(bin) ?? [];
    list.push({ ...toRevision(row), rev: Number(row.rev) });
    revisions.set(bin, list);
  }
  return revisions;
}

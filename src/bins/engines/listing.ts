import { listSummary } from './list-summary.js';

/**
 * What a head keeps for the list: its latest revision's summary, and that lowercased for the filter
 * (SQLite's own lower() folds ASCII letters only; JavaScript's folds every script).
 */
export function listing(revision: { html: string; javascript: string; css: string }): { summary: string; folded: string } {
  const summary = listSummary(revision.html, revision.javascript, revision.css);
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

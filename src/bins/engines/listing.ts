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

/** What the list can be sorted by: the last save, the id, how many revisions a bin keeps. */
export const SORT_KEYS = ['updated', 'name', 'revisions'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
/** An order of the list; ties go by id, in the same direction (ids are unique, so every order is total). */
export type Sort = { by: SortKey; order: 'asc' | 'desc' };
/** Last saved first, as the list always was. */
export const DEFAULT_SORT: Sort = { by: 'updated', order: 'desc' };

export type PageQuery = {
  /** Bins whose id or summary holds this text, in any case; all when empty. */
  q?: string;
  /** DEFAULT_SORT when absent. Ids compare byte by byte on every engine. */
  sort?: Sort;
  offset: number;
  limit: number;
};

/** A page of bins in the query's order, and how many bins match in all. */
export type BinPage = { rows: BinRow[]; total: number };

import type { BinPage, PageQuery } from './bin-listing.js';
import type { Revision } from './store.js';

/**
 * The per-bin head: `latest` is the newest revision still there (0 once all are deleted), `next` the
 * number the next save gets (numbers are never given twice); `summary` and `folded` are the latest
 * revision's (bin-listing.ts), kept here so the list never reads revisions.
 */
export type Head = { latest: number; next: number; created: string; updated: string; summary: string; folded: string };

/**
 * What one storage engine does for the bin store (store.ts), each in one statement or transaction.
 * The store keeps the caches and the per-bin queue; an engine only reads and writes. Every write is
 * atomic: a crash leaves the bin as it was before it or after it.
 */
export interface BinEngine {
  head(bin: string): Promise<Head | undefined>;
  /** The head, and the revision `rev` (the latest when undefined) if the head counts it. */
  read(bin: string, rev: number | undefined): Promise<{ head: Head; revision?: Revision } | undefined>;
  revision(bin: string, rev: number): Promise<Revision | undefined>;
  /** The newest revision numbered below `rev`, with its number. */
  before(bin: string, rev: number): Promise<(Revision & { rev: number }) | undefined>;
  /**
   * Writes revision `head.latest` and the head together. `fresh`: the id was drawn at random and
   * never read; resolves false, writing nothing, if a bin has it.
   */
  save(bin: string, revision: Revision, head: Head, fresh: boolean): Promise<boolean>;
  /** Deletes revision `rev`, and writes `head` with it when given (the latest was deleted). */
  remove(bin: string, rev: number, head?: Head): Promise<void>;
  /** A bin's revision numbers and save times, newest first. */
  revisions(bin: string): Promise<{ rev: number; created: string }[]>;
  /** Every head, and every revision a head counts, by bin. */
  everything(): Promise<{ heads: Map<string, Head>; revisions: Map<string, (Revision & { rev: number })[]> }>;
  /** A page of bins with a revision, last saved first, and how many match in all. */
  page(query: PageQuery): Promise<BinPage>;
  close(): Promise<void>;
}

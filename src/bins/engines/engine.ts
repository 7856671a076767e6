import type { BinPage, PageQuery } from './listing.js';
import type { Revision } from './records.js';
import type { ChangeFeed as Feed } from '../../store/change-feed.js';
import type { Relay } from '../../store/relay.js';
import type { Template } from './records.js';

/**
 * The per-bin head: `latest` is the newest revision still there (0 once all are deleted), `next` the
 * number the next save gets (numbers are never given twice); `summary` and `folded` are the latest
 * revision's (listing.ts), kept here so the list never reads revisions.
 */
export type Head = { latest: number; next: number; created: string; updated: string; summary: string; folded: string };

/** What another instance changed: a bin's head (`rev` set: that revision was deleted), or the template. */
export type Change = { bin: string; rev?: number } | { template: true };

/** Notices of other instances' bin writes (store/change-feed.ts). */
export type ChangeFeed = Feed<Change>;

/** The one template record (../store/template-store.ts keeps it in memory). */
export type TemplateRecord = {
  get(): Promise<Template | undefined>;
  set(template: Template): Promise<void>;
  clear(): Promise<void>;
};

/**
 * What one storage engine does for the bin store (store.ts), each in one statement, transaction or
 * script. The store keeps the caches; an engine reads and writes, and its writes are conditional on
 * what the store read, so instances sharing the engine's store never give a number twice (the loser
 * reads again and retries). Every write is atomic: a crash leaves the bin as it was before it or after it.
 */
export interface BinEngine {
  head(bin: string): Promise<Head | undefined>;
  /** The head, and the revision `rev` (the latest when undefined) if the head counts it. */
  read(bin: string, rev: number | undefined): Promise<{ head: Head; revision?: Revision } | undefined>;
  revision(bin: string, rev: number): Promise<Revision | undefined>;
  /** The newest revision numbered below `rev`, with its number. */
  before(bin: string, rev: number): Promise<(Revision & { rev: number }) | undefined>;
  /**
   * Writes revision `head.latest` and the head together, if the stored head's `next` is still
   * `expected` (undefined: only if the bin does not exist). Resolves false, writing nothing, if not.
   */
  save(bin: string, revision: Revision, head: Head, expected: number | undefined): Promise<boolean>;
  /**
   * Deletes revision `rev`. With `head` (the latest was deleted), writes it too, only if the stored
   * head's `latest` is still `rev`; resolves false, writing nothing, if not.
   */
  remove(bin: string, rev: number, head?: Head): Promise<boolean>;
  /** A bin's revision numbers and save times, newest first. */
  revisions(bin: string): Promise<{ rev: number; created: string }[]>;
  /** Every head, and every revision a head counts, by bin. */
  everything(): Promise<{ heads: Map<string, Head>; revisions: Map<string, (Revision & { rev: number })[]> }>;
  /** A page of bins with a revision, last saved first, and how many match in all. */
  page(query: PageQuery): Promise<BinPage>;
  template: TemplateRecord;
  /** Absent for an engine only one process writes (SQLite, under its lock). */
  changes?: ChangeFeed;
  /** Messages between the instances (live typing); absent where there is one process. */
  relay?: Relay;
  /** Where the bins are, for the banner (a file, or a URL without its password). */
  readonly where: string;
  close(): Promise<void>;
}

import { LRUCache } from 'lru-cache';
import { createKeyQueue } from '../store/key-queue.js';
import { openSqliteKeyv } from '../store/sqlite.js';
import type { BinEngine, Head } from './bin-engine.js';
import { listing, type BinPage, type PageQuery } from './bin-listing.js';
import { randomId } from './ids.js';
import { openSqliteBins } from './sqlite-bins.js';
import { createTemplateStore, type TemplateStore } from './template-store.js';

export type Settings = Record<string, unknown>;

/** One saved revision of a bin; revisions are never rewritten. */
export type Revision = {
  html: string;
  javascript: string;
  css: string;
  settings: Settings;
  /** ISO 8601 time of the save. */
  created: string;
};

/** A revision with the bin and number it was found under. */
export type StoredRevision = Revision & { bin: string; rev: number };

export type BinSummary = { bin: string; revisions: StoredRevision[] };

/** Bins, and the one template new bins start from (template-store.ts). */
export interface BinStore extends TemplateStore {
  readonly file: string;
  /** A revision, or the latest when `rev` is undefined; undefined when there is none. */
  get(bin: string, rev?: number): Promise<StoredRevision | undefined>;
  /** `get` answered from memory alone, synchronously: undefined also when the head or the revision is not kept. */
  peek(bin: string, rev?: number): StoredRevision | undefined;
  /**
   * Appends a revision, to `bin` (claimed if new) or to a fresh random id when `bin` is undefined.
   * `build` gets the bin's latest revision (if any) under the bin's lock, so its result can derive
   * from it. Resolves once the revision is written.
   */
  append(bin: string | undefined, build: (previous: StoredRevision | undefined) => Omit<Revision, 'created'>): Promise<StoredRevision>;
  /** Deletes a revision (the latest when `rev` is undefined); undefined when there was none. */
  remove(bin: string, rev?: number): Promise<{ bin: string; rev: number } | undefined>;
  /** A bin's revision numbers and save times, newest first, without their content (one query). */
  revisions(bin: string): Promise<{ rev: number; created: string }[]>;
  /** Every bin with its revisions, newest bin first, revisions newest first. */
  list(): Promise<BinSummary[]>;
  /** A page of bins with a revision, last saved first, optionally filtered; one bounded query each. */
  page(query: PageQuery): Promise<BinPage>;
  close(): Promise<void>;
}

/**
 * Opens the bins store on a SQLite file: the bins in tables of their own (sqlite-bins.ts), the
 * template a Keyv record (namespace `bins`).
 */
export async function openBinStore(file: string, cache?: CacheLimits): Promise<BinStore> {
  const db = await openSqliteKeyv(file, { namespace: 'bins' });
  let engine: BinEngine;
  try {
    engine = await openSqliteBins(db.file);
  } catch (err) {
    await db.close();
    throw err;
  }
  const store = createBinStore(engine, createTemplateStore(db.keyv), cache);
  return {
    ...store,
    file: db.file,
    async close() {
      try {
        await engine.close();
      } finally {
        await db.close();
      }
    },
  };
}

/** How much of the store is kept in memory: heads by count, revisions by their text size (0 = off). */
export type CacheLimits = { heads: number; revisionBytes: number };
const DEFAULT_CACHE: CacheLimits = { heads: 100_000, revisionBytes: 64 * 1024 * 1024 };

/** A cache that holds nothing when its limit is 0 (lru-cache refuses a 0 limit). */
function boundedCache<V extends object>(options: LRUCache.Options<string, V, unknown>, limit: number): Cache<V> {
  if (limit <= 0) return { get: () => undefined, set: () => {}, delete: () => {} };
  return new LRUCache<string, V>(options);
}
type Cache<V> = { get(key: string): V | undefined; set(key: string, value: V): void; delete(key: string): void };

const revKey = (bin: string, rev: number) => `${bin}/${rev}`;

/** The store over one engine: caches in front, and one queue per bin so its saves get numbers in turn. */
export function createBinStore(
  engine: BinEngine,
  templates: TemplateStore,
  cache: CacheLimits = DEFAULT_CACHE,
): Omit<BinStore, 'file' | 'close'> {
  // Per-bin queue: saves to one bin run one after another, so each gets the next number.
  const queue = createKeyQueue();
  // This process is the store's only writer (the lock), so what it caches cannot go stale.
  // Revisions never change; heads change only through append/remove below, which update the cache.
  const heads = boundedCache<Head>({ max: cache.heads }, cache.heads);
  const revisions = boundedCache<Revision>(
    {
      maxSize: cache.revisionBytes,
      sizeCalculation: (r) => 2 * (r.html.length + r.javascript.length + r.css.length) + 256,
    },
    cache.revisionBytes,
  );

  // Changes as each write starts and ends: a read that overlapped a write may hold what the write
  // replaced, so it is answered but not cached (a stale head would give its next number twice).
  let writes = 0;
  async function writing<T>(work: () => Promise<T>): Promise<T> {
    writes++;
    try {
      return await work();
    } finally {
      writes++;
    }
  }

  async function readHead(bin: string): Promise<Head | undefined> {
    let head = heads.get(bin);
    if (!head) {
      const before = writes;
      head = await engine.head(bin);
      if (head && writes === before) heads.set(bin, head);
    }
    return head;
  }

  async function readRevision(bin: string, rev: number): Promise<StoredRevision | undefined> {
    const key = revKey(bin, rev);
    let revision = revisions.get(key);
    if (!revision) {
      const before = writes;
      revision = await engine.revision(bin, rev);
      if (revision && writes === before) revisions.set(key, revision);
    }
    return revision && { ...revision, bin, rev };
  }


  return {
    async get(bin, rev) {
      const cached = heads.get(bin);
      if (!cached) {
        // Head and revision in one statement.
        const before = writes;
        const found = await engine.read(bin, rev);
        if (!found) return undefined;
        const current = writes === before;
        if (current) heads.set(bin, found.head);
        if (found.head.latest === 0 || (rev !== undefined && rev > found.head.latest) || !found.revision) return undefined;
        const number = rev ?? found.head.latest;
        if (current) revisions.set(revKey(bin, number), found.revision);
        return { ...found.revision, bin, rev: number };
      }
      if (cached.latest === 0) return undefined;
      // Only revisions the head counts are there.
      if (rev !== undefined && rev > cached.latest) return undefined;
      return readRevision(bin, rev ?? cached.latest);
    },

    peek(bin, rev) {
      const head = heads.get(bin);
      // The head leaves the cache while a save or delete writes it: then nothing is answered from memory.
      if (!head || head.latest === 0 || (rev !== undefined && rev > head.latest)) return undefined;
      const target = rev ?? head.latest;
      const revision = revisions.get(revKey(bin, target));
      return revision && { ...revision, bin, rev: target };
    },

    async append(requested, build) {
      for (let attempt = 0; ; attempt++) {
        // A random id is never read first: its save claims it, and fails if a bin has it (engine.save's
        // `fresh`); then another is drawn, longer after every third collision.
        const fresh = requested === undefined;
        const bin = requested ?? randomId(6 + Math.floor(attempt / 3));
        if (fresh && (queue.busy(bin) || heads.get(bin))) continue;
        const saved = await queue.run(bin, async () => {
          const head = fresh ? undefined : await readHead(bin);
          const previous = head && head.latest > 0 ? await readRevision(bin, head.latest) : undefined;
          const now = new Date().toISOString();
          const revision: Revision = { ...build(previous), created: now };
          const rev = head?.next ?? 1;
          const nextHead: Head = { latest: rev, next: rev + 1, created: head?.created ?? now, updated: now, ...listing(revision) };
          heads.delete(bin); // a failed write must not leave the cache ahead of the store
          if (!(await writing(() => engine.save(bin, revision, nextHead, fresh)))) return undefined;
          heads.set(bin, nextHead);
          revisions.set(revKey(bin, rev), revision);
          return { ...revision, bin, rev };
        });
        if (saved) return saved;
      }
    },

    async remove(bin, rev) {
      return queue.run(bin, async () => {
        const head = await readHead(bin);
        if (!head || head.latest === 0) return undefined;
        const target = rev ?? head.latest;
        if (target > head.latest || !(await readRevision(bin, target))) return undefined;
        let nextHead: Head | undefined;
        if (target === head.latest) {
          const shown = await engine.before(bin, target);
          const empty = { html: '', javascript: '', css: '' };
          nextHead = { ...head, latest: shown?.rev ?? 0, updated: new Date().toISOString(), ...listing(shown ?? empty) };
        }
        heads.delete(bin);
        revisions.delete(revKey(bin, target));
        await writing(() => engine.remove(bin, target, nextHead));
        heads.set(bin, nextHead ?? head);
        return { bin, rev: target };
      });
    },

    async revisions(bin) {
      const head = await readHead(bin);
      if (!head || head.latest === 0) return [];
      return engine.revisions(bin);
    },

    async list() {
      const all = await engine.everything();
      return [...all.revisions.entries()]
        .filter(([bin]) => all.heads.has(bin))
        .map(([bin, list]) => ({ bin, revisions: list.map(({ rev, ...revision }) => ({ ...revision, bin, rev })) }))
        .sort((a, b) => (all.heads.get(b.bin)!.created < all.heads.get(a.bin)!.created ? -1 : 1));
    },

    ...templates,
    page: (query) => engine.page(query),
  };
}

import { LRUCache } from 'lru-cache';
import { createKeyQueue } from '../store/key-queue.js';
import { openSqliteKeyv, type SqliteKeyv } from '../store/sqlite.js';
import { listing, pageBins, prepareListing, type BinPage, type PageQuery } from './bin-listing.js';
import { randomId } from './ids.js';
import { createTemplateStore, TEMPLATE_KEY, type TemplateStore } from './template-store.js';

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

/**
 * The per-bin head record: `latest` is the newest revision still there (0 once all are deleted);
 * `summary` and `folded` are that revision's (bin-listing.ts), kept here so the list never reads revisions.
 */
type Head = { latest: number; next: number; created: string; updated: string; summary?: string; folded?: string };

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

const headKey = (bin: string) => bin;
const revKey = (bin: string, rev: number) => `${bin}/${rev}`;

/** Opens the bins store on a SQLite file (Keyv namespace `bins`). */
export async function openBinStore(file: string, cache?: CacheLimits): Promise<BinStore> {
  const db = await openSqliteKeyv(file, { namespace: 'bins' });
  try {
    await prepareListing(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return createBinStore(db, cache);
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

export function createBinStore(db: SqliteKeyv, cache: CacheLimits = DEFAULT_CACHE): BinStore {
  const { keyv } = db;
  // Per-bin queue: saves to one bin run one after another, so each gets the next number.
  const queue = createKeyQueue();
  // This process is the file's only writer (the lock), so what it caches cannot go stale.
  // Revisions never change; heads change only through append/remove below, which update the cache.
  const heads = boundedCache<Head>({ max: cache.heads }, cache.heads);
  const revisions = boundedCache<Revision>(
    {
      maxSize: cache.revisionBytes,
      sizeCalculation: (r) => 2 * (r.html.length + r.javascript.length + r.css.length) + 256,
    },
    cache.revisionBytes,
  );
  // One statement writes the revision and the head: both land, or neither does.
  const upsertTwo = `INSERT INTO keyv (key, value) VALUES (?, ?), (?, ?)
    ON CONFLICT(key) DO UPDATE SET value = excluded.value`;

  async function readHead(bin: string): Promise<Head | undefined> {
    let head = heads.get(bin);
    if (!head) {
      head = (await keyv.get(headKey(bin))) as Head | undefined;
      if (head) heads.set(bin, head);
    }
    return head;
  }

  async function readRevision(bin: string, rev: number): Promise<StoredRevision | undefined> {
    const key = revKey(bin, rev);
    let revision = revisions.get(key);
    if (!revision) {
      revision = (await keyv.get(key)) as Revision | undefined;
      if (revision) revisions.set(key, revision);
    }
    return revision && { ...revision, bin, rev };
  }

  async function writeHead(bin: string, head: Head): Promise<void> {
    heads.delete(bin); // a failed write must not leave the cache ahead of the file
    await keyv.set(headKey(bin), head);
    heads.set(bin, head);
  }

  /** A random id no bin has; longer after each collision. Checked again under the lock in append. */
  async function freshId(): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const id = randomId(6 + Math.floor(attempt / 3));
      if (!queue.busy(id) && !(await readHead(id))) return id;
    }
  }

  return {
    file: db.file,

    async get(bin, rev) {
      const head = await readHead(bin);
      if (!head || head.latest === 0) return undefined;
      // Only revisions the head counts are there (a deleted latest leaves its number behind).
      if (rev !== undefined && rev > head.latest) return undefined;
      return readRevision(bin, rev ?? head.latest);
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
      for (;;) {
        const bin = requested ?? (await freshId());
        const saved = await queue.run(bin, async () => {
          const head = await readHead(bin);
          // A random id taken meanwhile (by a save that named it) is never written over.
          if (requested === undefined && head) return undefined;
          const previous = head && head.latest > 0 ? await readRevision(bin, head.latest) : undefined;
          const now = new Date().toISOString();
          const revision: Revision = { ...build(previous), created: now };
          const rev = head?.next ?? 1;
          const nextHead: Head = { latest: rev, next: rev + 1, created: head?.created ?? now, updated: now, ...listing(revision) };
          heads.delete(bin);
          await db.query(
            upsertTwo,
            db.prefix + revKey(bin, rev),
            JSON.stringify({ value: revision }),
            db.prefix + headKey(bin),
            JSON.stringify({ value: nextHead }),
          );
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
        if (target > head.latest || !(await keyv.has(revKey(bin, target)))) return undefined;
        if (target === head.latest) {
          // The head moves first: a crash before the row goes leaves it above the head, where no read finds it.
          let latest = target - 1;
          while (latest > 0 && !(await keyv.has(revKey(bin, latest)))) latest--;
          const shown = latest > 0 ? await readRevision(bin, latest) : undefined;
          const updated = new Date().toISOString();
          await writeHead(bin, { ...head, latest, updated, ...listing(shown ?? { html: '', javascript: '', css: '' }) });
        }
        revisions.delete(revKey(bin, target));
        await keyv.delete(revKey(bin, target));
        return { bin, rev: target };
      });
    },

    async revisions(bin) {
      const head = await readHead(bin);
      if (!head || head.latest === 0) return [];
      // A key range rather than LIKE: ids may hold '_', a LIKE wildcard; '0' sorts right after '/'.
      const prefix = `${db.prefix}${bin}/`;
      const rows = await db.query(
        "SELECT key, json_extract(value, '$.value.created') AS created FROM keyv WHERE key >= ? AND key < ?",
        prefix,
        `${db.prefix}${bin}0`,
      );
      return rows
        .map((row) => ({ rev: Number(String(row.key).slice(prefix.length)), created: String(row.created) }))
        .filter((entry) => Number.isInteger(entry.rev) && entry.rev <= head.latest)
        .sort((a, b) => b.rev - a.rev);
    },

    async list() {
      // Keyv's iterator pages with OFFSET and recurses (keyv #1008): one query reads the namespace instead.
      const rows = await db.query('SELECT key, value FROM keyv WHERE key LIKE ?', `${db.prefix}%`);
      const heads = new Map<string, Head>();
      const revisions: StoredRevision[] = [];
      for (const row of rows) {
        const key = String(row.key).slice(db.prefix.length);
        if (key === TEMPLATE_KEY) continue;
        const { value } = JSON.parse(String(row.value)) as { value: unknown };
        const slash = key.indexOf('/');
        if (slash === -1) heads.set(key, value as Head);
        else revisions.push({ ...(value as Revision), bin: key.slice(0, slash), rev: Number(key.slice(slash + 1)) });
      }
      const byBin = new Map<string, StoredRevision[]>();
      for (const revision of revisions) {
        const head = heads.get(revision.bin);
        if (!head || revision.rev > head.latest) continue;
        const list = byBin.get(revision.bin) ?? [];
        list.push(revision);
        byBin.set(revision.bin, list);
      }
      return [...byBin.entries()]
        .map(([bin, list]) => ({ bin, revisions: list.sort((a, b) => b.rev - a.rev) }))
        .sort((a, b) => (heads.get(b.bin)!.created < heads.get(a.bin)!.created ? -1 : 1));
    },

    ...createTemplateStore(keyv),
    page: (query) => pageBins(db, query),

    close: () => db.close(),
  };
}

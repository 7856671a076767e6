import { LRUCache } from 'lru-cache';
import { createKeyQueue } from '../../store/key-queue.js';
import type { Relay } from '../../store/relay.js';
import { openSqliteKeyv } from '../../store/sqlite.js';
import type { BinEngine, Head } from '../engines/engine.js';
import { listing, type BinPage, type PageQuery } from '../engines/listing.js';
import { randomId } from '../addresses/ids.js';
import { openSqliteBins } from '../engines/sqlite.js';
import { createTemplateStore, keyvTemplate, type TemplateStore } from './template-store.js';
import type { Revision } from '../engines/records.js';

/** A revision with the bin and number it was found under. */
export type StoredRevision = Revision & { bin: string; rev: number };

/** A revision just appended, with the summary the list keeps for it (so no caller works it out again). */
export type SavedRevision = StoredRevision & { summary: string };

export type BinSummary = { bin: string; revisions: StoredRevision[] };

/** Bins, and the one template new bins start from (template-store.ts). */
export interface BinStore extends TemplateStore {
  /** Where the bins are: the SQLite file, or the shared store's URL without its password. */
  readonly where: string;
  /** Messages to and from the other instances on a shared store (../live/hub.ts joins it). */
  readonly relay?: Relay;
  /** A revision, or the latest when `rev` is undefined; undefined when there is none. */
  get(bin: string, rev?: number): Promise<StoredRevision | undefined>;
  /**
   * `get` answered from memory alone, synchronously: undefined also when the head or the revision is not kept.
   * Both give the kept object itself, the same one while it stays kept (callers may key what they derive by it).
   */
  peek(bin: string, rev?: number): StoredRevision | undefined;
  /**
   * Appends a revision, to `bin` (claimed if new) or to a fresh random id when `bin` is undefined.
   * `build` gets the bin's latest revision (if any), and is called again if another instance saved
   * to the bin first, so its result can derive from it. Resolves once the revision is written.
   */
  append(bin: string | undefined, build: (previous: StoredRevision | undefined) => Omit<Revision, 'created'>): Promise<SavedRevision>;
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
 * Opens the bins store on a SQLite file: the bins in tables of their own (../engines/sqlite.ts), the
 * template a Keyv record (namespace `bins`).
 */
export async function openBinStore(file: string, cache?: CacheLimits): Promise<BinStore> {
  const db = await openSqliteKeyv(file, { namespace: 'bins' });
  let engine: BinEngine;
  try {
    engine = await openSqliteBins(db.file, keyvTemplate(db.keyv));
  } catch (err) {
    await db.close();
    throw err;
  }
  const store = createBinStore(engine, cache);
  return {
    ...store,
    async close() {
      try {
        await store.close();
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
  if (limit <= 0) return { get: () => undefined, set: () => {}, delete: () => {}, clear: () => {} };
  return new LRUCache<string, V>(options);
}
type Cache<V> = { get(key: string): V | undefined; set(key: string, value: V): void; delete(key: string): void; clear(): void };

const revKey = (bin: string, rev: number) => `${bin}/${rev}`;

/**
 * The store over one engine: caches in front, a queue per bin so this process's own saves to a bin
 * take turns, and conditional writes so saves from other instances never share a number.
 */
export function createBinStore(engine: BinEngine, cache: CacheLimits = DEFAULT_CACHE): BinStore {
  // Per-bin queue: this process's saves to one bin run one after another (they would only lose to each other).
  const queue = createKeyQueue();
  // Revisions never change; heads change through append/remove below, which update the cache, and
  // through other instances' writes, whose notices (engine.changes) drop what they changed.
  // Counted through maxSize rather than `max`: with `max`, lru-cache allocates its arrays for all 100,000
  // heads up front, 17 to 50 ms of every serve-bins start; this way they grow as heads are read.
  const heads = boundedCache<Head>({ maxSize: cache.heads, sizeCalculation: () => 1 }, cache.heads);
  const revisions = boundedCache<StoredRevision>(
    {
      maxSize: cache.revisionBytes,
      sizeCalculation: (r) => 2 * (r.html.length + r.javascript.length + r.css.length) + 256,
    },
    cache.revisionBytes,
  );

  // Moves as each write starts and ends and at each notice: a read that overlapped one may hold what it
  // replaced, so it is answered but not kept (a stale head would give its next number twice).
  let epoch = 0;
  // Moves at each notice and change of the channel's state alone: what this process wrote is kept
  // unless one came meanwhile (it may be of a later write to the same bin).
  let notices = 0;
  // False while notices may be missed (the feed's channel is down): then nothing is kept.
  let listening = true;
  const mayKeep = (before: number) => listening && epoch === before;
  const templates = createTemplateStore(engine.template, () => listening);

  engine.changes?.subscribe(
    (change) => {
      epoch++;
      notices++;
      if ('template' in change) return templates.forget();
      heads.delete(change.bin);
      if (change.rev !== undefined) revisions.delete(revKey(change.bin, change.rev));
    },
    (now) => {
      // Whatever was kept before the channel dropped is not trusted again: read afresh.
      epoch++;
      notices++;
      listening = now;
      heads.clear();
      revisions.clear();
      templates.forget();
    },
  );

  /**
   * Runs a write to `bin`. What is kept of the bin stays until the write is answered (it is the store's
   * until then); a write that failed may have landed or not, so the bin's head is dropped.
   */
  async function writing<T>(bin: string, work: () => Promise<T>): Promise<T> {
    epoch++;
    try {
      return await work();
    } catch (err) {
      heads.delete(bin);
      throw err;
    } finally {
      epoch++;
    }
  }

  /** The head, from memory unless `fresh`: after a write that lost, the store's own is needed. */
  async function readHead(bin: string, fresh = false): Promise<Head | undefined> {
    let head = fresh ? undefined : heads.get(bin);
    if (!head) {
      const before = epoch;
      head = await engine.head(bin);
      if (head && mayKeep(before)) heads.set(bin, head);
    }
    return head;
  }

  async function readRevision(bin: string, rev: number): Promise<StoredRevision | undefined> {
    const key = revKey(bin, rev);
    const kept = revisions.get(key);
    if (kept) return kept;
    const before = epoch;
    const found = await engine.revision(bin, rev);
    const revision = found && { ...found, bin, rev };
    if (revision && mayKeep(before)) revisions.set(key, revision);
    return revision;
  }

  /**
   * Keeps what this process just wrote, unless a notice came meanwhile or the channel is down: then
   * the head it was built on goes too, since it is behind the store now (no notice of our own write
   * will come to drop it).
   */
  function kept(bin: string, head: Head | undefined, noticesBefore: number, revision?: StoredRevision) {
    if (!listening || notices !== noticesBefore) {
      heads.delete(bin);
      return;
    }
    if (head) heads.set(bin, head);
    if (revision && head) revisions.set(revKey(bin, revision.rev), revision);
  }

  return {
    where: engine.where,
    ...(engine.relay && { relay: engine.relay }),

    async get(bin, rev) {
      const cached = heads.get(bin);
      // A number past the kept head may be another instance's save whose notice is still on its way: the
      // store is asked, as for a head not kept (a later number than its own is no proof of absence).
      if (!cached || (rev !== undefined && rev > cached.latest)) {
        // Head and revision in one statement.
        const before = epoch;
        const found = await engine.read(bin, rev);
        if (!found) return undefined;
        const current = mayKeep(before);
        if (current) heads.set(bin, found.head);
        if (found.head.latest === 0 || (rev !== undefined && rev > found.head.latest) || !found.revision) return undefined;
        const revision = { ...found.revision, bin, rev: rev ?? found.head.latest };
        if (current) revisions.set(revKey(bin, revision.rev), revision);
        return revision;
      }
      if (cached.latest === 0) return undefined;
      return readRevision(bin, rev ?? cached.latest);
    },

    peek(bin, rev) {
      const head = heads.get(bin);
      // What is kept is the store's until a write is answered; a failed write drops the head.
      if (!head || head.latest === 0 || (rev !== undefined && rev > head.latest)) return undefined;
      return revisions.get(revKey(bin, rev ?? head.latest));
    },

    async append(requested, build) {
      for (let attempt = 0; ; attempt++) {
        // A random id is never read first: its save claims it, and fails if a bin has it (`expected`
        // undefined); then another is drawn, longer after every third collision.
        const fresh = requested === undefined;
        const bin = requested ?? randomId(6 + Math.floor(attempt / 3));
        if (fresh && (queue.busy(bin) || heads.get(bin))) continue;
        const saved = await queue.run(bin, async () => {
          // A named bin's save that lost to another instance's reads the head again and rebuilds.
          for (let lost = false; ; lost = true) {
            const head = fresh ? undefined : await readHead(bin, lost);
            const previous = head && head.latest > 0 ? await readRevision(bin, head.latest) : undefined;
            const now = new Date().toISOString();
            const revision: Revision = { ...build(previous), created: now };
            const rev = head?.next ?? 1;
            const nextHead: Head = { latest: rev, next: rev + 1, created: head?.created ?? now, updated: now, ...listing(revision) };
            const before = notices;
            if (await writing(bin, () => engine.save(bin, revision, nextHead, head?.next))) {
              const stored = { ...revision, bin, rev };
              kept(bin, nextHead, before, stored);
              return { ...stored, summary: nextHead.summary };
            }
            if (fresh) return undefined;
          }
        });
        if (saved) return saved;
      }
    },

    async remove(bin, rev) {
      return queue.run(bin, async () => {
        for (let lost = false; ; lost = true) {
          const head = await readHead(bin, lost);
          if (!head || head.latest === 0) return undefined;
          const target = rev ?? head.latest;
          // After a lost write the store's own answer is needed, not what is kept.
          const there = lost ? await engine.revision(bin, target) : await readRevision(bin, target);
          if (target > head.latest || !there) return undefined;
          let nextHead: Head | undefined;
          if (target === head.latest) {
            const shown = await engine.before(bin, target);
            const empty = { html: '', javascript: '', css: '' };
            nextHead = { ...head, latest: shown?.rev ?? 0, updated: new Date().toISOString(), ...listing(shown ?? empty) };
          }
          const before = notices;
          const done = await writing(bin, () => engine.remove(bin, target, nextHead));
          if (done) {
            revisions.delete(revKey(bin, target));
            kept(bin, nextHead ?? head, before);
            return { bin, rev: target };
          }
          // Another instance wrote the bin meanwhile (a save, or a delete of the revision the head would
          // move to, or of this one): read again and delete what is there now.
        }
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

    template: templates.template,
    setTemplate: templates.setTemplate,
    clearTemplate: templates.clearTemplate,
    page: (query) => engine.page(query),
    close: () => engine.close(),
  };
}

import type { Logger } from '../../server/logger.js';
import { createKeyQueue } from '../../store/key-queue.js';
import { LogBudget } from '../log/budget.js';
import type { MemoryBudget } from '../../gates/memory-budget.js';
import type { EndpointSave, StatsRecords } from './engine.js';
import { newStats, RequestLog, type EndpointStats, type LoggedRequest, type SavedLog, type Unsaved } from '../log/request-log.js';

/** How often changed counters and new log entries are written, in milliseconds (docs/mock-api.md). */
export const DEFAULT_FLUSH_MS = 200;

export type StatsJournalOptions = {
  /** Entries kept per endpoint, in memory and in the file. */
  logSize: number;
  /** Bytes all logs keep together, in memory and in the file (../log/budget.ts). */
  maxLogBytes: number;
  /** The accountant whose `logs` account to charge (its limit then stands for maxLogBytes). */
  memory?: MemoryBudget;
  flushMs: number;
  /** Told when a save fails (it is retried) and when saving works again. */
  logger: Logger;
  /**
   * Other instances save to the same logs: a save keeps the newest logSize entries of them all, not
   * what this instance's memory keeps (the byte budget trims memory, and the log again at a load).
   */
  shared?: boolean;
};

/**
 * Keeps every endpoint's counters and request log in the data file. Serving only changes memory;
 * a log's first request after a save marks it, and a timer writes all marked endpoints in one batch.
 * Batches, clears and deletes run one at a time, in the order they were asked for.
 */
export type StatsJournal = {
  /** The saved counters of `name` (first call only), else fresh ones; wired to be saved. */
  statsFor(name: string): EndpointStats;
  /**
   * A log of requests no endpoint answered, charged to the same byte budget as the endpoints' logs
   * (so a flood of them evicts, and is evicted, like any) and never saved: it is this instance's.
   */
  unmatchedLog(): RequestLog;
  /** Forgets what was saved for endpoints that no statsFor call claimed (left by a crash mid-delete). */
  dropUnclaimed(): Promise<void>;
  /** Empties the log in memory now, in the file before resolving. Counters stay. */
  clear(name: string, stats: EndpointStats): Promise<void>;
  /** The endpoint is deleted: nothing more of it is saved, and what was saved goes. */
  drop(name: string, stats: EndpointStats): Promise<void>;
  /** Another instance deleted the endpoint (and what was saved of it): nothing more of it is saved here. */
  discard(stats: EndpointStats): void;
  /** Another instance served `hits` requests of this endpoint (and saves them): counted and logged here, not saved. */
  shared(stats: EndpointStats, hits: number, entries: LoggedRequest[]): void;
  /** Another instance cleared the endpoint's log, in the store too: this one's copy goes, with what it had not saved. */
  clearedElsewhere(stats: EndpointStats): void;
  /**
   * Reads every counter and log again and puts them in place for `endpoints`, keeping what this
   * instance has not saved yet: requests other instances told of may have been missed.
   */
  reload(endpoints: Iterable<[string, EndpointStats]>): Promise<void>;
  /** Saves what is pending, then stops the timer. */
  close(): Promise<void>;
};

/** Loads what `records` hold (the engine's counters and logs). */
export async function openStatsJournal(records: StatsRecords, options: StatsJournalOptions): Promise<StatsJournal> {
  const { logSize, flushMs, logger } = options;
  const budget = new LogBudget(options.memory?.logs ?? options.maxLogBytes);
  const loadSaved = async () => {
    const saved = new Map<string, SavedLog>();
    for (const [name, found] of await records.load(logSize)) {
      const entries = found.entries.map((row) => row.entry);
      const count = found.entries.at(-1)?.seq ?? 0;
      saved.set(name, { hits: found.hits, lastCall: found.lastCall, sequence: found.sequence, count, entries });
    }
    return saved;
  };
  const saved = await loadSaved();

  // One key: every write to these tables runs alone, in order.
  const queue = createKeyQueue();
  const run = (task: () => Promise<void>) => queue.run('stats', task);
  const marked: [string, EndpointStats][] = [];
  const dropped = new WeakSet<EndpointStats>();
  // The hits the store counts for each endpoint: a save adds what came since (other instances add theirs).
  const savedHits = new WeakMap<EndpointStats, number>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let failing = false;

  const schedule = () => {
    if (timer || closed) return;
    // unref: a pending save alone does not keep the process up; close() saves what is left.
    timer = setTimeout(() => {
      timer = undefined;
      void run(flush);
    }, flushMs).unref();
  };

  const flush = async () => {
    const batch = marked.splice(0);
    const saving: EndpointSave[] = [];
    const taken: [EndpointStats, unsaved: Unsaved, clears: number, hits: number][] = [];
    for (const [name, endpoint] of batch) {
      const log = endpoint.requests;
      log.unmark();
      if (dropped.has(endpoint)) continue;
      // At most the ring's worth: in a flood, older unsaved requests were overwritten in memory.
      const unsaved = log.takeUnsaved();
      const hits = endpoint.hits - (savedHits.get(endpoint) ?? 0);
      saving.push({
        name,
        hits,
        lastCall: log.lastCall,
        sequence: endpoint.sequence,
        entries: unsaved.entries,
        skipped: unsaved.skipped,
        // Past --log-size, or evicted by the byte budget: the saved log keeps what memory keeps.
        keep: options.shared ? logSize : log.size,
      });
      taken.push([endpoint, unsaved, log.clears, hits]);
    }
    if (taken.length === 0) return;
    try {
      await records.save(saving);
    } catch (err) {
      for (const [endpoint] of taken) endpoint.requests.saved();
      if (!failing) logger.error(`cannot save request logs to the data file (retrying): ${(err as Error).message}`);
      failing = true;
      for (const [endpoint, unsaved, clears] of taken) {
        endpoint.requests.untake(unsaved, clears);
        endpoint.requests.mark();
      }
      return;
    }
    for (const [endpoint] of taken) endpoint.requests.saved();
    if (failing) logger.info('request logs are saved to the data file again');
    failing = false;
    for (const [endpoint, , , hits] of taken) savedHits.set(endpoint, (savedHits.get(endpoint) ?? 0) + hits);
  };

  return {
    unmatchedLog: () => new RequestLog(logSize, budget),
    statsFor(name) {
      const found = saved.get(name);
      saved.delete(name);
      const stats: EndpointStats = newStats(logSize, budget, () => {
        marked.push([name, stats]);
        schedule();
      });
      if (found) {
        stats.hits = found.hits;
        savedHits.set(stats, found.hits);
        stats.sequence = found.sequence;
        // After `stats` is set: the budget may evict as it loads, which marks the log.
        stats.requests.restore(found);
      }
      return stats;
    },
    async dropUnclaimed() {
      const names = [...saved.keys()];
      saved.clear();
      if (names.length > 0) await run(() => records.forget(names));
    },
    clear(name, stats) {
      stats.requests.clear();
      return run(() => records.clearLog(name));
    },
    discard(stats) {
      dropped.add(stats);
      stats.requests.clear();
    },
    clearedElsewhere(stats) {
      stats.requests.clear();
    },
    drop(name, stats) {
      dropped.add(stats);
      // Gives its entries' bytes back to the budget.
      stats.requests.clear();
      return run(() => records.forget([name]));
    },
    shared(stats, hits, entries) {
      if (dropped.has(stats)) return;
      stats.hits += hits;
      savedHits.set(stats, (savedHits.get(stats) ?? 0) + hits);
      for (const entry of entries) stats.requests.addShared(entry);
    },
    reload: (endpoints) =>
      // In the queue, so no save of this instance is under way as the store is read.
      run(async () => {
        const found = await loadSaved();
        for (const [name, stats] of endpoints) {
          const one = found.get(name);
          if (!one || dropped.has(stats)) continue;
          // The store's count, plus what this instance counted since its last save.
          stats.hits = one.hits + stats.hits - (savedHits.get(stats) ?? 0);
          savedHits.set(stats, one.hits);
          stats.requests.reload(one);
        }
      }),
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      await run(flush);
    },
  };
}

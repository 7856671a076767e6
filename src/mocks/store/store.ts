import { createKeyQueue } from '../../store/key-queue.js';
import type { MockInput, StoredMock } from '../record/record.js';
import { silentLogger, type Logger } from '../../server/logger.js';
import { MemoryBudget } from '../../gates/memory-budget.js';
import { RevisedMap } from './revised-map.js';
import { recordCost } from '../record/cost.js';
import type { LoggedRequest, RequestLog } from '../log/request-log.js';
import { MOCK_DEFAULTS } from '../config/defaults.js';
import { DEFAULT_FLUSH_MS, openStatsJournal } from '../engines/stats-journal.js';
import { RouteTable, type Lookup } from './route-table.js';
import { createSourceSync, type SourceChange } from './source-sync.js';
import { openCollections, type Collections } from '../collections/state.js';
import { followChanges } from './follow-changes.js';
import { openScenarios, type Scenarios } from './scenarios.js';
import { patternOf, toEndpoint, type Endpoint } from './endpoint.js';
import { conflictError, fromSourceError, fullError, noMemoryError } from './refusals.js';
import type { MockEngine } from '../engines/engine.js';

export type { StoredMock } from '../record/record.js';

export type WriteResult = { created: boolean; endpoint: Endpoint };

/**
 * Endpoints persisted by a storage engine (../engines/engine.ts) and mirrored in a Map for serving. Reads
 * are synchronous from the Map; a write resolves once the engine has stored it, and the Map changes
 * in that same step.
 */
export type MockStore = {
  /** Where the endpoints are kept (the engine's `where`). */
  readonly file: string;
  /** Most endpoints it holds (--max-endpoints). */
  readonly maxEndpoints: number;
  /** Live data of collection endpoints. */
  readonly collections: Collections;
  /** The states of stateful scenarios (scenarios.ts). */
  readonly scenarios: Scenarios;
  /** The accountant every keeper of this store and its app charges (../../gates/memory-budget.ts). */
  readonly memory: MemoryBudget;
  /** Requests to /endpoint/ that no endpoint answered (404, 405), newest kept: this instance's only. */
  readonly unmatched: RequestLog;
  /** Moves on every change to the endpoints held, whoever made it (the API, files, other instances). */
  revision(): number;
  get(name: string): Endpoint | undefined;
  /** The endpoint answering `method` on `path` (after /endpoint/, undecoded), a 405's Allow, or nothing. */
  route(method: string, path: string): Lookup<Endpoint>;
  /** Every endpoint, sorted by name. */
  list(): Endpoint[];
  /**
   * Creates `input.name`; when it exists already, returns it untouched with `created: false`.
   * A 409 (field `path`) when another endpoint has the same route shape and a method in common.
   */
  add(input: MockInput): Promise<WriteResult>;
  /** Creates or replaces. */
  put(input: MockInput): Promise<WriteResult>;
  /** False when there was no such endpoint. */
  delete(name: string): Promise<boolean>;
  /**
   * Replaces every endpoint of `source` with `inputs` at once, in memory (files are the truth). All or nothing:
   * a SourceRecordError (with the refused input's index) leaves the source's endpoints as they were.
   */
  syncSource(source: string, inputs: MockInput[]): Promise<SourceChange>;
  /**
   * Back to a clean state, for a test suite between tests: endpoints the API made are deleted; those of
   * files stay, with fresh counters, logs and collection data; the unmatched log is emptied; every scenario is at `start`.
   */
  reset(): Promise<{ deleted: number; kept: number }>;
  /** Empties the endpoint's request log, in the file too; false when there is no such endpoint. */
  clearLog(name: string): Promise<boolean>;
  /** Tells the other instances on the store of a request an endpoint served here (already counted and logged). */
  share(name: string, entry: LoggedRequest): void;
  /** Calls `listener` with each request another instance served, once it is counted and logged here. */
  onShared(listener: (name: string, entry: LoggedRequest) => void): void;
  /** Work a request started that outlives its answer (a recording): close() waits for it first. */
  hold(work: Promise<unknown>): void;
  /** Waits for held work, saves pending counters and log entries, then closes the file. */
  close(): Promise<void>;
};

export type MockStoreOptions = {
  /** Requests each endpoint's log keeps, in memory and in the file. */
  logSize: number;
  /** Bytes all request logs keep together, in memory and in the file; past it the oldest entries go. */
  maxLogBytes: number;
  /** How often counters and log entries are saved, in milliseconds. */
  flushMs: number;
  /** Most endpoints the store holds; creating one more is a 507. */
  maxEndpoints: number;
  /** Bytes of memory all endpoint records may cost together (--max-store-bytes); past it a write is a 507. */
  maxStoreBytes: number;
  /** The accountant to charge; one is made from maxLogBytes and maxStoreBytes when absent. */
  memory?: MemoryBudget;
  logger: Logger;
  /**
   * Loads endpoints from files (syncSource) after the data file's own and before saved counters of
   * unknown names are dropped, so a file endpoint keeps its counters and log across restarts.
   */
  preload?: (store: MockStore) => Promise<void>;
};

export const DEFAULT_STORE_OPTIONS: MockStoreOptions = {
  logSize: MOCK_DEFAULTS.logSize,
  maxLogBytes: MOCK_DEFAULTS.maxLogBytes,
  flushMs: DEFAULT_FLUSH_MS,
  maxEndpoints: MOCK_DEFAULTS.maxEndpoints,
  maxStoreBytes: MOCK_DEFAULTS.maxStoreBytes,
  logger: silentLogger,
};

/** The store over one engine, which it closes on close(). */
export async function createMockStore(engine: MockEngine, options: MockStoreOptions): Promise<MockStore> {
  const memory = options.memory ?? new MemoryBudget({ logs: options.maxLogBytes, records: options.maxStoreBytes });
  // Every endpoint held, charged at its measured cost whoever sets it (API, files, other instances).
  const endpoints = new RevisedMap<string, Endpoint>(memory.records, (endpoint) => recordCost(endpoint.record));
  // Kept in step with `endpoints`: every change to one is made to the other in the same synchronous step.
  const routes = new RouteTable<Endpoint>();
  const journal = await openStatsJournal(engine.stats, { ...options, memory, shared: engine.changes !== undefined });
  const collections = openCollections(engine.collections, undefined, memory.collections);
  const scenarios = await openScenarios(engine, options.logger, { max: options.maxEndpoints, named: () => endpoints.values() });
  const loaded = await engine.endpoints.all();
  // Oldest first, so that where routes tie the older endpoint wins, as it did before the restart.
  loaded.sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.name < b.name ? -1 : 1));
  for (const record of loaded) {
    const endpoint = toEndpoint(record, journal.statsFor(record.name));
    endpoints.set(record.name, endpoint);
    routes.set(record.name, patternOf(record), record.methods, endpoint);
  }

  // Writes to one name run one after another, so two adds of the same name cannot both create it.
  const queue = createKeyQueue();
  // Routes of writes under way: writes of different names run side by side, and each must see the others.
  const reserved = new RouteTable<undefined>();
  // New names being written: they count against maxEndpoints before they are in `endpoints`.
  let creating = 0;

  // Other instances' writes, on a shared store.
  const followed = followChanges(engine, { endpoints, routes, queue, journal, collections, logger: options.logger, toEndpoint, patternOf });

  const write = async (input: MockInput, replace: boolean): Promise<WriteResult> => {
    const { name } = input;
    const existing = endpoints.get(name);
    if (existing && !replace) return { created: false, endpoint: existing };
    if (existing?.source) throw fromSourceError(name, existing.source);
    const pattern = patternOf(input);
    const other = routes.conflict(name, pattern, input.methods) ?? reserved.conflict(name, pattern, input.methods);
    if (other !== undefined) throw conflictError(pattern, other);
    if (!existing && endpoints.size + creating >= options.maxEndpoints) throw fullError(options.maxEndpoints);
    const now = new Date().toISOString();
    const record: StoredMock = { ...input, created: existing?.record.created ?? now, updated: now };
    // Reserved until the endpoint is in `endpoints` (which charges it), so writes side by side see each other.
    const cost = recordCost(record);
    if (!memory.records.tryCharge(cost, existing ? recordCost(existing.record) : 0)) throw noMemoryError(memory.records.limit);
    reserved.set(name, pattern, input.methods, undefined);
    if (!existing) creating++;
    try {
      await engine.endpoints.put(record);
      followed.wrote(name);
      const endpoint = toEndpoint(record, existing?.stats ?? journal.statsFor(name));
      endpoints.set(name, endpoint);
      routes.set(name, pattern, input.methods, endpoint);
      return { created: !existing, endpoint };
    } finally {
      reserved.remove(name);
      memory.records.release(cost);
      if (!existing) creating--;
    }
  };

  const syncSource = createSourceSync({ endpoints, routes, reserved, queue, journal, toEndpoint, patternOf,
    maxEndpoints: options.maxEndpoints, creating: () => creating });

  const { relay } = engine;
  const sharedListeners: ((name: string, entry: LoggedRequest) => void)[] = [];
  relay?.subscribe((message) => {
    const batch = JSON.parse(message) as SharedBatch;
    for (const name of batch.cleared ?? []) {
      const endpoint = endpoints.get(name);
      if (endpoint) journal.clearedElsewhere(endpoint.stats);
    }
    for (const { name, hits, entries } of batch.served) {
      const endpoint = endpoints.get(name);
      // Not (yet) known here: its record's notice comes on another channel; the store counts it anyway.
      if (!endpoint) continue;
      journal.shared(endpoint.stats, hits, entries);
      for (const entry of entries) for (const listener of sharedListeners) listener(name, entry);
    }
  });
  // Requests served here since the last message, per endpoint: one message every SHARE_MS, not one a request.
  const outgoing = new Map<string, SharedBatch['served'][number]>();
  let sharing: NodeJS.Timeout | undefined;
  const sendShared = () => {
    sharing = undefined;
    relay!.publish(JSON.stringify({ served: [...outgoing.values()] } satisfies SharedBatch));
    outgoing.clear();
  };

  const remove = async (name: string, endpoint: Endpoint) => {
    if (!(await engine.endpoints.delete(name))) throw new Error(`the data file did not delete endpoint '${name}'`);
    followed.wrote(name);
    endpoints.delete(name);
    routes.remove(name);
    await journal.drop(name, endpoint.stats);
    await collections.reset(name);
  };

  const held = new Set<Promise<unknown>>();
  const store: MockStore = {
    file: engine.where,
    unmatched: journal.unmatchedLog(),
    revision: () => endpoints.revision,
    maxEndpoints: options.maxEndpoints,
    collections,
    scenarios,
    memory,
    get: (name) => endpoints.get(name),
    route: (method, path) => routes.find(method, path),
    list: () => [...endpoints.values()].sort((a, b) => (a.record.name < b.record.name ? -1 : 1)),
    add: (input) => queue.run(input.name, () => write(input, false)),
    put: (input) => queue.run(input.name, () => write(input, true)),
    delete: (name) =>
      queue.run(name, async () => {
        const endpoint = endpoints.get(name);
        if (!endpoint) return false;
        if (endpoint.source) throw fromSourceError(name, endpoint.source);
        await remove(name, endpoint);
        return true;
      }),
    async reset() {
      let deleted = 0;
      for (const name of [...endpoints.keys()]) {
        await queue.run(name, async () => {
          const endpoint = endpoints.get(name);
          if (!endpoint) return;
          if (!endpoint.source) return void (await remove(name, endpoint), deleted++);
          // A file's endpoint stays as the file says, counted from nothing, with its collection's first data.
          await journal.drop(name, endpoint.stats);
          const fresh = toEndpoint(endpoint.record, journal.statsFor(name), endpoint.source);
          endpoints.set(name, fresh);
          routes.set(name, patternOf(fresh.record), fresh.record.methods, fresh);
          await collections.reset(name);
        });
      }
      store.unmatched.clear();
      await scenarios.reset();
      return { deleted, kept: endpoints.size };
    },
    syncSource,
    clearLog: async (name) => {
      const endpoint = endpoints.get(name);
      if (!endpoint) return false;
      await journal.clear(name, endpoint.stats);
      if (relay) {
        // Requests from before the clear that have not gone out yet would bring entries back elsewhere.
        const pending = outgoing.get(name);
        if (pending) pending.entries = [];
        relay.publish(JSON.stringify({ served: [], cleared: [name] } satisfies SharedBatch));
      }
      return true;
    },
    share(name, entry) {
      if (!relay) return;
      let batch = outgoing.get(name);
      if (!batch) outgoing.set(name, (batch = { name, hits: 0, entries: [] }));
      batch.hits++;
      // A log shows its newest logSize requests: older ones of a flood need not travel.
      if (batch.entries.push(entry) > options.logSize) batch.entries.shift();
      sharing ??= setTimeout(sendShared, SHARE_MS).unref();
    },
    onShared: (listener) => void sharedListeners.push(listener),
    hold(work) {
      held.add(work);
      void work.catch(() => undefined).finally(() => held.delete(work));
    },
    async close() {
      await Promise.allSettled([...held]);
      if (sharing) {
        clearTimeout(sharing);
        sendShared();
      }
      try {
        await Promise.all([journal.close(), scenarios.close()]);
      } finally {
        await engine.close();
      }
    },
  };
  await options.preload?.(store);
  // On a shared store, counters no endpoint here claims may be those of one another instance has just
  // created: only a store this process alone writes is tidied.
  if (!engine.changes) await journal.dropUnclaimed();
  return store;
}

/** How long requests served wait to go to the other instances together, in milliseconds. */
const SHARE_MS = 20;

/** What an instance tells the others: requests it served (per endpoint, how many and the newest entries), logs cleared. */
type SharedBatch = { served: { name: string; hits: number; entries: LoggedRequest[] }[]; cleared?: string[] };

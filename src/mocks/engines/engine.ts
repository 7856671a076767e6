import type { ChangeFeed } from '../../store/change-feed.js';
import type { Relay } from '../../store/relay.js';
import type { StoredMock } from '../record/record.js';
import type { LoggedRequest } from '../log/request-log.js';

/**
 * What one storage engine does for the mock store (store.ts), each write in one statement,
 * transaction or script. The store keeps everything in memory and reads only at start (and, on a
 * shared store, what a notice names); an engine reads and writes. Written so several instances can
 * share one store: counters are added to, never overwritten, and log entries are appended and
 * numbered by the store.
 */
export interface MockEngine {
  endpoints: EndpointRecords;
  collections: CollectionRecords;
  stats: StatsRecords;
  scenarios: ScenarioRecords;
  /** Other instances' changes to records; absent for an engine only one process writes (SQLite, under its lock). */
  changes?: ChangeFeed<MockChange>;
  /** Messages to the other instances (requests as they are served); absent where there are none (SQLite). */
  relay?: Relay;
  /** Where the mocks are, for the banner (a file, or a URL without its password). */
  readonly where: string;
  close(): Promise<void>;
}

/** What another instance changed: an endpoint's record (put or deleted), a collection's saved state, scenario states. */
export type MockChange = { endpoint: string } | { collection: string } | { scenarios: true };

/** The endpoints' records, by name. */
export type EndpointRecords = {
  /** Every record, in no order (at start). */
  all(): Promise<StoredMock[]>;
  /** One record (after a notice). */
  get(name: string): Promise<StoredMock | undefined>;
  /** Creates or replaces the record of `record.name`. */
  put(record: StoredMock): Promise<void>;
  /** False when there was none. */
  delete(name: string): Promise<boolean>;
};

/**
 * A collection's saved state: its JSON, `seed`, a digest of the data it started from (../collections/state.ts),
 * and `version`, which the store adds one to at each save (no saved state: version 0).
 */
export type SavedCollection = { seed: string; value: string; version: number };

export type CollectionRecords = {
  load(name: string): Promise<SavedCollection | undefined>;
  /**
   * Saves the state only if the stored version is still `expected` (0: none is stored), so of two
   * instances' saves from one version, one lands. Resolves false, writing nothing and telling no one, if not.
   */
  save(name: string, saved: Omit<SavedCollection, 'version'>, expected: number): Promise<boolean>;
  /** Unconditional: a reset. */
  drop(name: string): Promise<void>;
};

/** An endpoint's counters: `hits` and `lastCall` over every instance, `sequence` its place in `pick: sequence`. */
export type SavedCounters = { hits: number; lastCall: string | null; sequence: number };
/** One endpoint as saved: its counters and its newest log entries, oldest first, as JSON text with their numbers. */
export type SavedEndpoint = SavedCounters & { entries: { seq: number; entry: string }[] };

/**
 * What one save of the stats journal (stats-journal.ts) writes for one endpoint: `hits` is added to
 * the stored count, `lastCall` replaces an earlier one, `sequence` (a place, not a count) replaces the
 * stored one. `entries` (oldest first) are appended, numbered on from the log's newest after `skipped`
 * requests that were never saved (overwritten in memory first); then the log keeps its newest `keep`.
 */
export type EndpointSave = { name: string } & SavedCounters & { entries: LoggedRequest[]; skipped: number; keep: number };

/** Counters and request logs, by endpoint name. */
export type StatsRecords = {
  /** Everything saved, each log cut to its newest `logSize` entries first (the size may have shrunk). */
  load(logSize: number): Promise<Map<string, SavedEndpoint>>;
  /** All of the batch or nothing. */
  save(batch: EndpointSave[]): Promise<void>;
  /** Empties a log; its counters stay. */
  clearLog(name: string): Promise<void>;
  /** Deletes the counters and logs of these endpoints. */
  forget(names: string[]): Promise<void>;
};

/**
 * The states of stateful scenarios (docs/mock-api.md, "Scenarios"), by scenario name: one small table
 * (or hash) beside the endpoints. A scenario with no state saved is at `start`.
 */
export type ScenarioRecords = {
  /** Every state saved. */
  all(): Promise<Map<string, string>>;
  /** Saves these states in one write and tells the other instances (`{ scenarios: true }`). */
  set(states: ReadonlyMap<string, string>): Promise<void>;
  /** Forgets every state (all back to `start`) and tells the other instances. */
  clear(): Promise<void>;
};

import { createHash } from 'node:crypto';
import { HttpError } from '../../http/errors.js';
import { createKeyQueue } from '../../store/key-queue.js';
import type { Item } from './query.js';
import type { CollectionRecords } from '../engines/engine.js';
import type { StoredMock } from '../record/record.js';
import { COLLECTION_BYTES, DEFAULT_MEMORY_LIMITS, jsonCost, MemoryAccount } from '../../gates/memory-budget.js';

/** A collection's live data: a list of items, or one object (json-server's singular resource, e.g. `profile`). */
export type State = Item[] | Item;

export type CollectionLimits = {
  /** Most items in one collection. */
  maxItems: number;
  /** Most bytes of one collection's JSON. */
  maxBytes: number;
};

export const DEFAULT_COLLECTION_LIMITS: CollectionLimits = {
  maxItems: 10_000,
  maxBytes: 1024 * 1024,
};

/** A change's outcome: what to answer, and the new state when there is one. */
export type Change<T> = { answer: T; state?: State };

/**
 * Live data of collection endpoints, kept in memory and in the data file. A change is stored
 * before it is answered (a json-server user expects a POST to survive a restart), one at a time
 * per collection. The record's data is the seed: a state saved from another seed is not used.
 */
export type Collections = {
  read(record: StoredMock): Promise<State>;
  update<T>(record: StoredMock, change: (state: State) => Change<T>): Promise<T>;
  /** Back to the seed: the saved state goes. */
  reset(name: string): Promise<void>;
  /** Told the name of each collection whose data changed (--write-db). */
  onChange(listener: (name: string) => void): void;
  /** Drops what is kept of one collection (another instance changed it), or of all: the next read loads it. */
  forget(name?: string): void;
};

/**
 * A kept state, and the stored version it was read at (or saved as), on which its next save is
 * conditional; `bytes` is what it costs in memory, charged to the accountant's `collections`.
 */
type Live = { seed: string; state: State; bytes: number; version: number };

/**
 * Collections whose states `records` (the engine's) keep. Every state kept is charged to `account`
 * (all collections together, ../../gates/memory-budget.ts) at its measured cost; a change that
 * would take it past its limit is a 507 before anything is saved.
 */
export function openCollections(
  records: CollectionRecords,
  limits: CollectionLimits = DEFAULT_COLLECTION_LIMITS,
  account = new MemoryAccount('collections', DEFAULT_MEMORY_LIMITS.collections),
): Collections {
  const live = new Map<string, Live>();
  const queue = createKeyQueue();
  const listeners: ((name: string) => void)[] = [];
  /**
   * Kept states are copies of what the store holds: to make room for `bytes` more (once `freed`
   * goes), the least recently used other than `name` go, and a read loads them again. A change
   * under way holds its own state, and its save is conditional on the version: dropping a copy
   * beneath it is safe. False when even then they do not fit.
   */
  const makeRoom = (bytes: number, freed: number, name: string): boolean => {
    for (const [other, kept] of live) {
      if (account.fits(bytes, freed)) return true;
      if (other === name) continue;
      account.release(kept.bytes);
      live.delete(other);
    }
    return account.fits(bytes, freed);
  };
  /** Keeps `next` for `name` (most recently used) in place of what was kept, charged in its place. */
  const keep = (name: string, next: Live | undefined) => {
    account.release(live.get(name)?.bytes ?? 0);
    live.delete(name);
    if (next === undefined) return;
    makeRoom(next.bytes, 0, name);
    account.charge(next.bytes);
    live.set(name, next);
  };

  /** The stored state (the seed's, if none is saved from this seed), kept in place of any other. */
  const load = async (record: StoredMock, seed: string): Promise<Live> => {
    const saved = await records.load(record.name);
    const text = saved?.seed === seed ? saved.value : (record.json ?? '[]');
    const loaded = { seed, state: JSON.parse(text) as State, bytes: stateCost(text), version: saved?.version ?? 0 };
    keep(record.name, loaded);
    return loaded;
  };
  const read = async (record: StoredMock): Promise<Live> => {
    const seed = digest(record.json ?? '');
    const cached = live.get(record.name);
    if (cached?.seed !== seed) return load(record, seed);
    // Most recently used last.
    live.delete(record.name);
    live.set(record.name, cached);
    return cached;
  };

  return {
    read: (record) => queue.run(record.name, async () => (await read(record)).state),
    update: (record, change) =>
      queue.run(record.name, async () => {
        // Another instance may save between this one's read and save: the save then lands nowhere,
        // and the change (pure) runs again on the state stored now, until a save lands.
        for (let current = await read(record); ; current = await load(record, current.seed)) {
          const { answer, state } = change(current.state);
          if (!state) return answer;
          const text = JSON.stringify(state);
          checkRoom(state, Buffer.byteLength(text), limits);
          const bytes = stateCost(text);
          // The old state goes as the new one comes: only the growth needs room.
          if (!makeRoom(bytes, live.get(record.name)?.bytes ?? 0, record.name)) throw noRoom(account.limit);
          if (!(await records.save(record.name, { seed: current.seed, value: text }, current.version))) continue;
          keep(record.name, { seed: current.seed, state, bytes, version: current.version + 1 });
          for (const listener of listeners) listener(record.name);
          return answer;
        }
      }),
    reset: (name) =>
      queue.run(name, async () => {
        await records.drop(name);
        keep(name, undefined);
        for (const listener of listeners) listener(name);
      }),
    onChange: (listener) => void listeners.push(listener),
    forget(name) {
      for (const key of name === undefined ? [...live.keys()] : [name]) {
        // In turn with the collection's changes, so one under way is not undone.
        void queue.run(key, async () => keep(key, undefined));
      }
    },
  };
}

// Anyone who reaches the port may write: every collection, and all of them together, are capped (507).
function checkRoom(state: State, bytes: number, limits: CollectionLimits): void {
  if (Array.isArray(state) && state.length > limits.maxItems) {
    throw new HttpError(507, `the collection is full: it holds at most ${limits.maxItems} items`);
  }
  if (bytes > limits.maxBytes) {
    throw new HttpError(507, `the collection is full: its data may take at most ${limits.maxBytes} bytes`);
  }
}

function noRoom(limit: number): HttpError {
  return new HttpError(507, `no room: a collection's data may take at most ${limit} bytes of memory (all kept together)`);
}

/** A state's measured cost in memory, from its JSON text. */
function stateCost(text: string): number {
  return COLLECTION_BYTES + jsonCost(text);
}

function digest(json: string): string {
  return createHash('sha256').update(json).digest('base64url');
}

import { createHash } from 'node:crypto';
import { HttpError } from '../../http/errors.js';
import { createKeyQueue } from '../../store/key-queue.js';
import type { Item } from './query.js';
import type { CollectionRecords } from '../engines/engine.js';
import type { StoredMock } from '../record/record.js';

/** A collection's live data: a list of items, or one object (json-server's singular resource, e.g. `profile`). */
export type State = Item[] | Item;

export type CollectionLimits = {
  /** Most items in one collection. */
  maxItems: number;
  /** Most bytes of one collection's JSON. */
  maxBytes: number;
  /** Most bytes of every collection's JSON together, in memory and in the file. */
  maxTotalBytes: number;
};

export const DEFAULT_COLLECTION_LIMITS: CollectionLimits = {
  maxItems: 10_000,
  maxBytes: 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
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

/** A kept state, and the stored version it was read at (or saved as), on which its next save is conditional. */
type Live = { seed: string; state: State; bytes: number; version: number };

/** Collections whose states `records` (the engine's) keep. */
export function openCollections(
  records: CollectionRecords,
  limits: CollectionLimits = DEFAULT_COLLECTION_LIMITS,
): Collections {
  const live = new Map<string, Live>();
  const queue = createKeyQueue();
  const listeners: ((name: string) => void)[] = [];
  let total = 0;

  /** The stored state (the seed's, if none is saved from this seed), kept in place of any other. */
  const load = async (record: StoredMock, seed: string): Promise<Live> => {
    const saved = await records.load(record.name);
    const text = saved?.seed === seed ? saved.value : (record.json ?? '[]');
    const loaded = { seed, state: JSON.parse(text) as State, bytes: Buffer.byteLength(text), version: saved?.version ?? 0 };
    total += loaded.bytes - (live.get(record.name)?.bytes ?? 0);
    live.set(record.name, loaded);
    return loaded;
  };
  const read = async (record: StoredMock): Promise<Live> => {
    const seed = digest(record.json ?? '');
    const cached = live.get(record.name);
    return cached?.seed === seed ? cached : load(record, seed);
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
          const bytes = Buffer.byteLength(text);
          checkRoom(state, bytes, total - current.bytes + bytes, limits);
          if (!(await records.save(record.name, { seed: current.seed, value: text }, current.version))) continue;
          total += bytes - current.bytes;
          live.set(record.name, { seed: current.seed, state, bytes, version: current.version + 1 });
          for (const listener of listeners) listener(record.name);
          return answer;
        }
      }),
    reset: (name) =>
      queue.run(name, async () => {
        await records.drop(name);
        total -= live.get(name)?.bytes ?? 0;
        live.delete(name);
        for (const listener of listeners) listener(name);
      }),
    onChange: (listener) => void listeners.push(listener),
    forget(name) {
      for (const key of name === undefined ? [...live.keys()] : [name]) {
        // In turn with the collection's changes, so one under way is not undone.
        void queue.run(key, async () => {
          total -= live.get(key)?.bytes ?? 0;
          live.delete(key);
        });
      }
    },
  };
}

// Anyone who reaches the port may write: every collection, and all of them together, are capped (507).
function checkRoom(state: State, bytes: number, total: number, limits: CollectionLimits): void {
  if (Array.isArray(state) && state.length > limits.maxItems) {
    throw new HttpError(507, `the collection is full: it holds at most ${limits.maxItems} items`);
  }
  if (bytes > limits.maxBytes) {
    throw new HttpError(507, `the collection is full: its data may take at most ${limits.maxBytes} bytes`);
  }
  if (total > limits.maxTotalBytes) {
    throw new HttpError(507, `no room: all collections together may take at most ${limits.maxTotalBytes} bytes`);
  }
}

function digest(json: string): string {
  return createHash('sha256').update(json).digest('base64url');
}

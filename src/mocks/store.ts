import { createKeyQueue } from '../store/key-queue.js';
import { openSqliteKeyv, type SqliteKeyv } from '../store/sqlite.js';
import { newStats, type EndpointStats } from './request-log.js';
import type { MockInput, StoredMock } from './record.js';

/** An endpoint ready to serve: its record, the body bytes, and its in-memory counters. */
export type Endpoint = {
  record: StoredMock;
  body: Buffer;
  stats: EndpointStats;
};

export type WriteResult = { created: boolean; endpoint: Endpoint };

/**
 * Endpoints persisted in Keyv and mirrored in a Map for serving. Reads are synchronous from the
 * Map; a write resolves once Keyv has stored it, and the Map changes in that same step.
 */
export type MockStore = {
  readonly file: string;
  get(name: string): Endpoint | undefined;
  /** Every endpoint, sorted by name. */
  list(): Endpoint[];
  /** Creates `input.name`; when it exists already, returns it untouched with `created: false`. */
  add(input: MockInput): Promise<WriteResult>;
  /** Creates or replaces. */
  put(input: MockInput): Promise<WriteResult>;
  /** False when there was no such endpoint. */
  delete(name: string): Promise<boolean>;
  close(): Promise<void>;
};

const KEY = 'endpoint:';

/** Opens (and locks) the SQLite file and loads every endpoint into memory. */
export async function openMockStore(file: string): Promise<MockStore> {
  const db = await openSqliteKeyv(file, { namespace: 'mocks' });
  try {
    return await createMockStore(db);
  } catch (err) {
    await db.close();
    throw err;
  }
}

export async function createMockStore(db: SqliteKeyv): Promise<MockStore> {
  const endpoints = new Map<string, Endpoint>();
  // One raw query instead of Keyv's iterator, which pages slowly and overflows at ~150k rows (keyv #1008).
  const rows = await db.query('SELECT key, value FROM keyv WHERE key LIKE ?', `${db.prefix}${KEY}%`);
  for (const row of rows) {
    const parsed = (await db.keyv.deserialize!(String(row.value))) as { value?: StoredMock } | undefined;
    const record = parsed?.value;
    if (record?.name) endpoints.set(record.name, toEndpoint(record, newStats()));
  }

  // Writes to one name run one after another, so two adds of the same name cannot both create it.
  const queue = createKeyQueue();

  const write = async (input: MockInput, replace: boolean): Promise<WriteResult> => {
    const existing = endpoints.get(input.name);
    if (existing && !replace) return { created: false, endpoint: existing };
    const now = new Date().toISOString();
    const record: StoredMock = { ...input, created: existing?.record.created ?? now, updated: now };
    if (!(await db.keyv.set(KEY + input.name, record))) {
      throw new Error(`the data file did not store endpoint '${input.name}'`);
    }
    const endpoint = toEndpoint(record, existing?.stats ?? newStats());
    endpoints.set(input.name, endpoint);
    return { created: !existing, endpoint };
  };

  return {
    file: db.file,
    get: (name) => endpoints.get(name),
    list: () => [...endpoints.values()].sort((a, b) => (a.record.name < b.record.name ? -1 : 1)),
    add: (input) => queue.run(input.name, () => write(input, false)),
    put: (input) => queue.run(input.name, () => write(input, true)),
    delete: (name) =>
      queue.run(name, async () => {
        if (!endpoints.has(name)) return false;
        if (!(await db.keyv.delete(KEY + name))) throw new Error(`the data file did not delete endpoint '${name}'`);
        endpoints.delete(name);
        return true;
      }),
    close: () => db.close(),
  };
}

function toEndpoint(record: StoredMock, stats: EndpointStats): Endpoint {
  return { record, body: Buffer.from(record.json ?? record.body ?? '', 'utf8'), stats };
}

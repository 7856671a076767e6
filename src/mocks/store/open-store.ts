import { openSharedEngine } from '../../store/shared-engine.js';
import type { MockEngine } from '../engines/engine.js';
import { openMemoryMocks } from '../engines/memory.js';
import { openSqliteMocks } from '../engines/sqlite.js';
import { createMockStore, DEFAULT_STORE_OPTIONS, type MockStore, type MockStoreOptions } from './store.js';

/** Opens (and locks) the SQLite file and loads every endpoint, its counters and its log into memory. */
export async function openMockStore(file: string, options: Partial<MockStoreOptions> = {}): Promise<MockStore> {
  return storeOver(await openSqliteMocks(file), options);
}

/** Endpoints kept in this process only, gone when it ends: the Node API's default (engines/memory.ts). */
export function openMemoryMockStore(options: Partial<MockStoreOptions> = {}): Promise<MockStore> {
  return storeOver(openMemoryMocks(), options);
}

/** Opens the mocks on a shared store (PostgreSQL, Redis) named by URL (store/shared-engine.ts). */
export async function openSharedMockStore(url: string, options: Partial<MockStoreOptions> = {}): Promise<MockStore> {
  const engine = await openSharedEngine<MockEngine>(url, {
    postgres: async (target, pool) => (await import('../engines/postgres.js')).openPostgresMocks(target, pool),
    redis: async (target, prefix) => (await import('../engines/redis.js')).openRedisMocks(target, { prefix }),
  });
  return storeOver(engine, options);
}

async function storeOver(engine: MockEngine, options: Partial<MockStoreOptions>): Promise<MockStore> {
  try {
    return await createMockStore(engine, { ...DEFAULT_STORE_OPTIONS, ...options });
  } catch (err) {
    await engine.close();
    throw err;
  }
}


import { join } from 'node:path';
import type { MockEngine } from '../../src/mocks/mock-engine.js';
import { openPostgresMocks } from '../../src/mocks/postgres-mocks.js';
import { openRedisMocks } from '../../src/mocks/redis-mocks.js';
import { openSqliteMocks } from '../../src/mocks/sqlite-mocks.js';
import { freshDatabase, freshRedisPrefix, sharedRedis } from './services.js';
import { tempDir } from './temp.js';

/**
 * A store space of one mock engine: a SQLite file, a PostgreSQL database, a Redis key prefix. `open`
 * gives another engine on the same space; `shared` says whether several may be open at once (one
 * SQLite file has one writer).
 */
export type MockEngineSpace = { shared: boolean; open(): Promise<MockEngine>; remove(): Promise<void> };

export type MockEngineKind = { name: string; space(): Promise<MockEngineSpace> };

/** Every engine the mocks run on: the contract suite runs once for each. */
export const MOCK_ENGINES: MockEngineKind[] = [
  {
    name: 'SQLite',
    async space() {
      const temp = tempDir();
      const file = join(temp.dir, 'mocks.sqlite');
      return { shared: false, open: () => openSqliteMocks(file), remove: async () => temp.cleanup() };
    },
  },
  {
    name: 'PostgreSQL',
    async space() {
      const url = await freshDatabase();
      return { shared: true, open: () => openPostgresMocks(url), remove: async () => {} };
    },
  },
  {
    name: 'Redis',
    async space() {
      const [url, prefix] = [await sharedRedis(), freshRedisPrefix()];
      return { shared: true, open: () => openRedisMocks(url, { prefix }), remove: async () => {} };
    },
  },
];

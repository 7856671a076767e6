import { join } from 'node:path';
import type { MockEngine } from '../../src/mocks/engines/engine.js';
import { openPostgresMocks } from '../../src/mocks/engines/postgres.js';
import { openRedisMocks } from '../../src/mocks/engines/redis.js';
import { openSqliteMocks } from '../../src/mocks/engines/sqlite.js';
import { createMockStore, DEFAULT_STORE_OPTIONS } from '../../src/mocks/store/store.js';
import { spacePerTest, type EngineKind, type EngineSpace } from './engine-space.js';
import { freshDatabase, freshRedisPrefix, sharedRedis } from './services.js';
import { tempDir } from './temp.js';

export type MockEngineSpace = EngineSpace<MockEngine>;
export type MockEngineKind = EngineKind<MockEngine>;

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

/** Hooks of the calling describe: each test has a new space of `kind`; the engines it opens are closed after it. */
export const mockEnginesPerTest = (kind: MockEngineKind) => spacePerTest(kind, (space) => space.open());

/** Hooks of the calling describe: each test has a new space of `kind`; the stores it opens are closed after it. */
export const mockStoresPerTest = (kind: MockEngineKind) =>
  spacePerTest(kind, async (space) => createMockStore(await space.open(), DEFAULT_STORE_OPTIONS));

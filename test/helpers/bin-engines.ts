import { join } from 'node:path';
import type { BinEngine } from '../../src/bins/engines/engine.js';
import { openPostgresBins } from '../../src/bins/engines/postgres.js';
import { openRedisBins } from '../../src/bins/engines/redis.js';
import { openSqliteBins } from '../../src/bins/engines/sqlite.js';
import { createBinStore, type BinStore, type CacheLimits } from '../../src/bins/store/store.js';
import { keyvTemplate } from '../../src/bins/store/template-store.js';
import { openSqliteKeyv } from '../../src/store/sqlite.js';
import { spacePerTest, type EngineKind as Kind, type EngineSpace as Space } from './engine-space.js';
import { freshDatabase, freshRedisPrefix, sharedRedis } from './services.js';
import { tempDir } from './temp.js';

export type EngineSpace = Space<BinEngine>;
export type EngineKind = Kind<BinEngine>;

/** Every engine the bins run on: the contract suites run once for each. */
export const BIN_ENGINES: EngineKind[] = [
  {
    name: 'SQLite',
    async space() {
      const temp = tempDir();
      const file = join(temp.dir, 'bins.sqlite');
      return {
        shared: false,
        async open() {
          const db = await openSqliteKeyv(file, { namespace: 'bins' });
          const engine = await openSqliteBins(db.file, keyvTemplate(db.keyv));
          return { ...engine, close: async () => (await engine.close(), await db.close()) };
        },
        remove: async () => temp.cleanup(),
      };
    },
  },
  {
    name: 'PostgreSQL',
    async space() {
      const url = await freshDatabase();
      return { shared: true, open: () => openPostgresBins(url), remove: async () => {} };
    },
  },
  {
    name: 'Redis',
    async space() {
      const url = await sharedRedis();
      const prefix = freshRedisPrefix();
      return { shared: true, open: () => openRedisBins(url, { prefix }), remove: async () => {} };
    },
  },
];

/** A BinStore over a new engine on `space`, closed with it. */
export async function storeOn(space: EngineSpace, cache?: CacheLimits): Promise<BinStore> {
  return createBinStore(await space.open(), cache);
}

/** Hooks of the calling describe: each test has a new space of `kind`; the engines it opens are closed after it. */
export const binEnginesPerTest = (kind: EngineKind) => spacePerTest(kind, (space) => space.open());

/** Hooks of the calling describe: each test has a new space of `kind`; the stores it opens are closed after it. */
export const binStoresPerTest = (kind: EngineKind) => spacePerTest(kind, (space) => storeOn(space));

import { openSharedEngine } from '../../store/shared-engine.js';
import { createBinStore, type BinStore, type CacheLimits } from './store.js';

/** Opens the bins on a shared store (PostgreSQL, Redis) named by URL (store/shared-engine.ts). */
export async function openSharedBinStore(url: string, cache?: CacheLimits): Promise<BinStore> {
  const engine = await openSharedEngine(url, {
    postgres: async (target, pool) => (await import('../engines/postgres.js')).openPostgresBins(target, pool),
    redis: async (target, prefix) => (await import('../engines/redis.js')).openRedisBins(target, { prefix }),
  });
  return createBinStore(engine, cache);
}

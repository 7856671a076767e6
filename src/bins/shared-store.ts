import { DataFileError } from '../store/data-file.js';
import { parseStoreUrl, withoutPassword } from '../store/store-url.js';
import { StoreUnavailable } from '../store/unavailable.js';
import type { BinEngine } from './bin-engine.js';
import { createBinStore, type BinStore, type CacheLimits } from './store.js';

/**
 * Opens the bins on a shared store (PostgreSQL, Redis) named by URL. Each engine's driver is loaded
 * only when its store is used. A store that cannot be reached at start is a start-up error (exit 3),
 * not a crash; once running, an instance rides out the store going away (503s, then service again).
 */
export async function openSharedBinStore(url: string, cache?: CacheLimits): Promise<BinStore> {
  const target = parseStoreUrl(url);
  if (!target) throw new DataFileError(`${withoutPassword(url)} is not a store URL (postgres://… or redis://…)`);
  let engine: BinEngine;
  try {
    engine =
      target.kind === 'postgres'
        ? await (await import('./postgres-bins.js')).openPostgresBins(target.url)
        : await (await import('./redis-bins.js')).openRedisBins(target.url, { prefix: target.prefix });
  } catch (err) {
    if (err instanceof StoreUnavailable) {
      throw new DataFileError(`cannot reach the store at ${withoutPassword(url)}: ${reasonOf(err)}`);
    }
    throw err;
  }
  return createBinStore(engine, cache);
}

function reasonOf(err: StoreUnavailable): string {
  const cause = err.cause as { code?: string; message?: string } | undefined;
  return cause?.code ?? cause?.message ?? 'no answer';
}

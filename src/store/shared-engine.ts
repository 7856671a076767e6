import { DataFileError } from './data-file.js';
import { parseStoreUrl, withoutPassword } from './store-url.js';
import { StoreUnavailable } from './unavailable.js';

/** How a server opens its engine on each shared store; each is imported only when its store is used. */
export type EngineOpeners<E> = {
  postgres(url: string, pool: number | undefined): Promise<E>;
  redis(url: string, prefix: string | undefined): Promise<E>;
};

/**
 * Opens a server's engine on the shared store (PostgreSQL, Redis) a URL names. A store that cannot be
 * reached at start is a start-up error (exit 3), not a crash; once running, an instance rides out the
 * store going away (503s, then service again).
 */
export async function openSharedEngine<E>(url: string, open: EngineOpeners<E>): Promise<E> {
  const target = parseStoreUrl(url);
  if (!target) throw new DataFileError(`${withoutPassword(url)} is not a store URL (postgres://… or redis://…)`);
  try {
    return target.kind === 'postgres' ? await open.postgres(target.url, target.pool) : await open.redis(target.url, target.prefix);
  } catch (err) {
    if (err instanceof StoreUnavailable) {
      throw new DataFileError(`cannot reach the store at ${withoutPassword(url)}: ${reasonOf(err)}`);
    }
    throw err;
  }
}

function reasonOf(err: StoreUnavailable): string {
  const cause = err.cause as { code?: string; message?: string } | undefined;
  return cause?.code ?? cause?.message ?? 'no answer';
}

import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** A rendered page as sent: its bytes and their strong ETag, hashed once. */
export type CachedPage = { body: Buffer; etag: string };

/** What a render gives: the page, and whether it may be kept (not when a compile failed for a passing reason). */
export type Rendered = { html: string; transient: boolean };

export type PageCache = {
  /**
   * The page under `key`, rendered by `render` when it is not kept; renders of one key running at once
   * share one. `key` must name everything the bytes depend on (bin, revision number, variant).
   */
  get(key: string, render: () => Promise<Rendered>): Promise<CachedPage>;
  /** The page under `key` if it is kept; never renders. */
  peek(key: string): CachedPage | undefined;
};

/**
 * What an output page's bytes depend on besides the revision (see createPages' output route): `token`
 * is the read capability, `mockToken` the private mocks token (the same for an hour: server/mock-token.ts).
 */
export type OutputVariant = { quiet: boolean; root: string; named: boolean; token: string | undefined; mockToken?: string };

/** The cache key of an output page: the revision, then quiet or the edit link and follow script's inputs. */
export function outputKey(bin: string, rev: number, { quiet, root, named, token, mockToken }: OutputVariant): string {
  return `${bin}/${rev} ${quiet ? 'quiet' : `${root} ${named ? 'rev' : 'latest'} ${token ?? ''} ${mockToken ?? ''}`}`;
}

/**
 * Rendered output pages by (bin, revision, variant), bounded by their size in bytes (0 = none kept).
 * A revision never changes and its number is never given to another, so an entry cannot go stale: the
 * caller resolves the revision in the store first (a deleted one is a 404 before the cache is asked, and
 * the latest is a head lookup), and a deleted revision's entries simply age out.
 */
export function createPageCache(maxBytes: number): PageCache {
  const pages =
    maxBytes > 0
      ? new LRUCache<string, CachedPage>({ maxSize: maxBytes, sizeCalculation: (page, key) => page.body.length + key.length + 64 })
      : undefined;
  const running = new Map<string, Promise<{ page: CachedPage; keep: boolean }>>();

  async function build(render: () => Promise<Rendered>): Promise<{ page: CachedPage; keep: boolean }> {
    const { html, transient } = await render();
    const body = Buffer.from(html);
    return { page: { body, etag: createHash('sha1').update(body).digest('base64url') }, keep: !transient };
  }

  return {
    async get(key, render) {
      const kept = pages?.get(key);
      if (kept) return kept;
      let pending = running.get(key);
      if (!pending) {
        pending = build(render);
        running.set(key, pending);
        pending.then(
          ({ page, keep }) => {
            running.delete(key);
            if (keep) pages?.set(key, page);
          },
          () => running.delete(key),
        );
      }
      return (await pending).page;
    },
    peek: (key) => pages?.get(key),
  };
}

import type { Handler } from '../../server/listen.js';
import { parseRev } from '../api/read.js';
import { anonymousReads } from '../auth/auth.js';
import type { BinConfig } from '../config/config.js';
import { ID_CHARS, normalizeId, REV_CHARS } from '../addresses/ids.js';
import { outputKey, type CachedPage, type PageCache } from './page-cache.js';
import { rootFrom } from '../assets/page-templates.js';
import { pageCaching } from './pages.js';
import { outputHeaders, type Framing } from '../config/security-headers.js';
import type { BinStore } from '../store/store.js';
import type { Settings } from '../engines/records.js';

// The output addresses (../addresses/page-paths.ts OUTPUT_PATHS and `.html`), as the routes match them: case-sensitive,
// no trailing slash, no query string (so no api_key, ?live or ?quiet), percent-free.
const OUTPUT = new RegExp(`^/(${ID_CHARS})(?:/(${REV_CHARS}))?(/quiet|\\.html)?$`);

export type FastPagesOptions = {
  store: BinStore;
  config: BinConfig;
  framing: Framing;
  pages: PageCache;
  /** Private mocks: a request with cookies may be the owner's, whose page differs (a mock token): the Koa route's. */
  ownerPages?: boolean;
};

/**
 * GET and HEAD of an output page already rendered and kept, answered before Koa's middleware chain (Koa
 * alone cost four times a bare server's CPU per page; measured in bench/bins.js). It sends the bytes and
 * headers the Koa route sent (the same cache entry, outputHeaders, pageCaching). Anything else goes to
 * `fallback`, the Koa app: reads that need the key, any Authorization or conditional request, event streams,
 * a bin with its own status or headers, a page not kept yet, a revision not there or not in memory.
 */
export function fastPages({ store, config, framing, pages, ownerPages = false }: FastPagesOptions, fallback: Handler): Handler {
  const security = outputHeaders(framing).flat();
  const open = anonymousReads(config);
  // Each kept page's head, built once per Cache-Control (a quiet page is one entry for /:bin and /:bin/:rev).
  const heads = { true: new WeakMap<CachedPage, string[]>(), false: new WeakMap<CachedPage, string[]>() };
  const headOf = (page: CachedPage, fixed: boolean): string[] => {
    let head = heads[`${fixed}`].get(page);
    if (!head) {
      head = [
        ...['Content-Type', 'text/html; charset=utf-8', 'Content-Length', String(page.body.length)],
        ...['ETag', `"${page.etag}"`, 'Cache-Control', pageCaching(fixed), ...security],
      ];
      heads[`${fixed}`].set(page, head);
    }
    return head;
  };
  return (req, res) => {
    const { headers } = req;
    const match =
      open &&
      (req.method === 'GET' || req.method === 'HEAD') &&
      headers.authorization === undefined &&
      !(ownerPages && headers.cookie !== undefined) &&
      headers['if-none-match'] === undefined &&
      headers['if-modified-since'] === undefined &&
      !(headers.accept ?? '').includes('text/event-stream')
        ? OUTPUT.exec(req.url ?? '')
        : null;
    const bin = match && normalizeId(match[1]!);
    if (!bin) return fallback(req, res);
    const rev = parseRev(match[2]);
    // From memory only: a read that would wait on SQLite, or a revision not there, is the Koa route's.
    const revision = store.peek(bin, rev);
    if (!revision || ownResponse(revision.settings)) return fallback(req, res);
    const variant = { quiet: match[3] === '/quiet', root: rootFrom(req.url!), named: rev !== undefined, token: undefined };
    const page = pages.peek(outputKey(bin, revision.rev, variant));
    if (!page) return fallback(req, res);
    res.writeHead(200, headOf(page, rev !== undefined));
    res.end(req.method === 'HEAD' ? undefined : page.body);
  };
}

/** A bin that sets its own status or headers is left to the Koa route (../api/output-settings.ts). */
function ownResponse(settings: Settings): boolean {
  return settings.statusCode != null || settings.headers != null;
}

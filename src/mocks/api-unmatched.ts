import type { Router } from '@koa/router';
import { sendJson } from '../http/json-answer.js';
import { NearMissFinder, type NearMiss } from './verify/near-miss.js';
import { patternOf } from './store/endpoint.js';
import type { MockStore } from './store/store.js';

const PREFIX = '/endpoint/';
/** How long one GET /api/unmatched may spend finding near misses, in milliseconds. */
const BUDGET_MS = 50;
const MAX_REMEMBERED = 10_000;

/**
 * GET /api/unmatched: the requests no endpoint answered, newest first, each with the endpoints
 * closest to it (verify/near-miss.ts); DELETE empties the log. Near misses are worked out here, when
 * asked, not as requests come: a flood of 404s then costs what any request costs. Each distinct method
 * and path is compared once with every endpoint and remembered until the endpoints change, and one call
 * works for at most BUDGET_MS: past it, the rest say `nearMisses: null` (not worked out yet; the next
 * call goes on from there), so a page asking during a flood never holds the server up.
 */
export function addUnmatchedRoutes(router: Router, store: MockStore): void {
  // Made again when the endpoints change: the patterns split once, and the answers found so far.
  let known: { revision: number; finder: NearMissFinder; found: Map<string, NearMiss[]> } | undefined;
  router.get('/unmatched', (ctx) => {
    const revision = store.revision();
    if (known?.revision !== revision) {
      const candidates = store.list().map(({ record }) => ({ name: record.name, pattern: patternOf(record), methods: record.methods }));
      known = { revision, finder: new NearMissFinder(candidates), found: new Map() };
    }
    const { finder, found } = known;
    const deadline = performance.now() + BUDGET_MS;
    // At least one a call, however busy the machine: every call moves on.
    let worked = 0;
    const requests = store.unmatched.newestFirst().map((entry) => {
      const path = pathOf(entry.url);
      const key = `${entry.method} ${path}`;
      let near = found.get(key);
      if (!near && (worked++ === 0 || performance.now() < deadline)) {
        // The log holds at most --log-size requests, and this only what they asked.
        if (found.size >= MAX_REMEMBERED) found.clear();
        found.set(key, (near = finder.find(entry.method, path)));
      }
      return { ...entry, nearMisses: near ?? null };
    });
    sendJson(ctx, { success: true, count: store.unmatched.count, requests });
  });

  router.delete('/unmatched', (ctx) => {
    store.unmatched.clear();
    sendJson(ctx, { success: true });
  });
}

/** What follows /endpoint/ in a logged URL, without its query. */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path.startsWith(PREFIX) ? path.slice(PREFIX.length) : path;
}

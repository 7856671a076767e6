import type { Router } from '@koa/router';
import { sendJson } from '../http/json-answer.js';
import { nearMisses, type Candidate, type NearMiss } from './serve/near-miss.js';
import { patternOf } from './store/endpoint.js';
import type { MockStore } from './store/store.js';

const PREFIX = '/endpoint/';

/**
 * GET /api/unmatched: the requests no endpoint answered, newest first, each with the endpoints
 * closest to it (serve/near-miss.ts); DELETE empties the log. Near misses are worked out here, when
 * asked, not as requests come: a flood of 404s then costs what any request costs. One call compares
 * each distinct method and path once against every endpoint.
 */
export function addUnmatchedRoutes(router: Router, store: MockStore): void {
  router.get('/unmatched', (ctx) => {
    const candidates: Candidate[] = store.list().map(({ record }) => ({
      name: record.name,
      pattern: patternOf(record),
      methods: record.methods,
    }));
    const seen = new Map<string, NearMiss[]>();
    const requests = store.unmatched.newestFirst().map((entry) => {
      const path = pathOf(entry.url);
      const key = `${entry.method} ${path}`;
      let near = seen.get(key);
      if (!near) seen.set(key, (near = nearMisses(entry.method, path, candidates)));
      return { ...entry, nearMisses: near };
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

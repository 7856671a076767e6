import type { Context } from 'koa';
import { HttpError } from '../http/errors.js';
import { SERVER_TOPIC, type RequestFeed } from './log/feed.js';
import type { MockStore } from './store/store.js';

export type RequestEventsOptions = {
  store: MockStore;
  feed: RequestFeed;
  /** A comment this often, so proxies and browsers keep an idle stream open. */
  keepAliveMs: number;
  /** Open streams across all endpoints; beyond, the rule of the event-stream server, or a 503. */
  maxStreams: number;
};

/**
 * GET /api/endpoint/<name>/events: Server-Sent Events for one endpoint's request log. The first
 * event, `log`, is the log so far (newest first); then one `request` event per request as it is
 * recorded. Both are taken in the same tick, so nothing falls between them and nothing repeats.
 */
export function streamRequestEvents(ctx: Context, name: string, options: RequestEventsOptions): void {
  const endpoint = options.store.get(name);
  if (!endpoint) throw new HttpError(404, `no endpoint named '${name}'`);
  const { keepAliveMs, maxStreams: maxTotal, store } = options;
  const streams = options.feed.open({ keepAliveMs, maxTotal, account: store.memory.streams });
  const opened = streams ? streams.open(ctx.req, ctx.res, name, ctx.ip) : { refused: 'the server is shutting down' };
  if ('refused' in opened) {
    ctx.set('Retry-After', '5');
    throw new HttpError(503, opened.refused);
  }
  ctx.respond = false;
  // JSON.stringify escapes CR and LF, so the data is a single `data:` line.
  opened.reader.send('log', JSON.stringify(endpoint.stats.requests.newestFirst()));
}

/**
 * GET /api/events: the page's server-wide stream. The first event, `summary`, gives the endpoints'
 * revision and the unmatched log's count; then, every SUMMARY_MS at most while something changed,
 * a `summary` with the new revision (when endpoints were added, changed or removed, by anyone), the
 * hit counts and last calls of endpoints that had requests, and the unmatched count when a request
 * no endpoint answered came. The page redraws its list from these without asking again.
 */
export function streamServerEvents(ctx: Context, options: RequestEventsOptions): void {
  const { keepAliveMs, maxStreams: maxTotal, store, feed } = options;
  const streams = feed.open({ keepAliveMs, maxTotal, account: store.memory.streams });
  const opened = streams ? streams.open(ctx.req, ctx.res, SERVER_TOPIC, ctx.ip) : { refused: 'the server is shutting down' };
  if ('refused' in opened) {
    ctx.set('Retry-After', '5');
    throw new HttpError(503, opened.refused);
  }
  ctx.respond = false;
  let revision = store.revision();
  opened.reader.send('summary', JSON.stringify({ revision, endpoints: [], unmatched: store.unmatched.count }));
  feed.summarize((touched, unmatched) => {
    const changed = store.revision() !== revision;
    if (!changed && touched.size === 0 && !unmatched) return undefined;
    revision = store.revision();
    const endpoints: { name: string; hits: number; lastCall: string | null }[] = [];
    for (const name of touched) {
      const endpoint = store.get(name);
      if (endpoint) endpoints.push({ name, hits: endpoint.stats.hits, lastCall: endpoint.stats.requests.lastCall });
    }
    return JSON.stringify({ revision, endpoints, ...(unmatched && { unmatched: store.unmatched.count }) });
  });
}

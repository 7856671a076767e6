import type { Context } from 'koa';
import { HttpError } from '../http/errors.js';
import type { RequestFeed } from './request-feed.js';
import type { LoggedRequest } from './request-log.js';
import type { MockStore } from './store.js';

export type RequestEventsOptions = {
  store: MockStore;
  feed: RequestFeed;
  /** A comment this often, so proxies and browsers keep an idle stream open. */
  keepAliveMs: number;
  /** Open streams across all endpoints; beyond, a 503. */
  maxStreams: number;
};

// A reader this far behind (a stalled tab, a dead link) is dropped rather than buffered without
// end; its EventSource reconnects and gets the whole log again in the first event.
const MAX_BUFFERED = 1024 * 1024;

/**
 * GET /api/endpoint/<name>/events: Server-Sent Events for one endpoint's request log. The first
 * event, `log`, is the log so far (newest first); then one `request` event per request as it is
 * recorded. Both are taken in the same tick, so nothing falls between them and nothing repeats.
 */
export function streamRequestEvents(ctx: Context, name: string, options: RequestEventsOptions): void {
  const endpoint = options.store.get(name);
  if (!endpoint) throw new HttpError(404, `no endpoint named '${name}'`);
  if (options.feed.closed || options.feed.size >= options.maxStreams) {
    // Set here: the error middleware answers every 5xx it catches as a generic 500.
    ctx.status = 503;
    ctx.set('Retry-After', '5');
    const message = options.feed.closed ? 'the server is shutting down' : 'too many open event streams, try again later';
    ctx.body = { success: false, message };
    return;
  }
  const { req, res } = ctx;
  ctx.respond = false;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    // nginx buffers proxied responses unless told not to, which would hold events back.
    'X-Accel-Buffering': 'no',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const write = (text: string) => {
    res.write(text);
    if (res.writableLength > MAX_BUFFERED) res.destroy();
  };
  write(`retry: 2000\n${frame('log', endpoint.stats.requests.newestFirst())}`);
  const unsubscribe = options.feed.subscribe(
    name,
    (entry: LoggedRequest) => write(frame('request', entry)),
    () => res.end(),
  );
  const keepAlive = setInterval(() => write(': keep-alive\n\n'), options.keepAliveMs);
  // 'close' comes when the client leaves and when the server drops the socket at shutdown.
  res.once('close', () => {
    unsubscribe();
    clearInterval(keepAlive);
  });
}

// JSON.stringify escapes CR and LF, so the data is always a single `data:` line.
function frame(event: string, value: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(value)}\n\n`;
}

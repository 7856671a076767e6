import { createEventStreams, type EventStreamLimits, type EventStreams } from '../../http/event-stream.js';
import type { LoggedRequest } from './request-log.js';

export type FeedLimits = EventStreamLimits;

export const FEED_DEFAULTS: FeedLimits = {
  keepAliveMs: 15_000,
  retryMs: 2000,
  maxPerTopic: 200,
  maxPerAddress: 50,
  maxTotal: 1000,
  // A reader this far behind (a stalled tab, a dead link) is dropped rather than buffered without
  // end; its EventSource reconnects and gets the whole log again in the first event.
  maxBuffered: 1024 * 1024,
};

/** The topic of the page's server-wide stream; no endpoint name can be `*`. */
export const SERVER_TOPIC = '*';

/**
 * How often the server-wide stream says what changed, in milliseconds: a flood's requests come
 * as one summary, not one event each.
 */
export const SUMMARY_MS = 250;

/**
 * What a summary says, from the endpoint names that had requests since the last one (and whether an
 * unmatched request came); undefined when there is nothing to say.
 */
export type Summarize = (touched: ReadonlySet<string>, unmatched: boolean) => string | undefined;

/**
 * The page's live request logs: one event stream per endpoint name, kept by name rather than on an
 * endpoint's stats, so a page following an endpoint keeps following it across a replace. With
 * nobody listening, publish() is one check: the hot path's usual case.
 */
export class RequestFeed {
  private streams: EventStreams | undefined;
  private ended = false;
  private closers: (() => void)[] = [];
  /** While the server-wide stream has readers: the names touched since the last summary. */
  private summary: { timer: NodeJS.Timeout; touched: Set<string>; unmatched: boolean } | undefined;

  /** `limits` beyond the app's config (which sets keep-alive and the total when the first stream opens). */
  constructor(private readonly limits: Partial<FeedLimits> = {}) {}

  /** True once close() has run: no new streams. */
  get closed(): boolean {
    return this.ended;
  }

  /** Open streams across all endpoints. */
  get size(): number {
    return this.streams?.size ?? 0;
  }

  /**
   * The event streams, made on first use: the CLI makes the feed (to close it at shutdown) before
   * the app whose config completes the limits, and whose store holds the accountant to charge.
   */
  open(config: Pick<FeedLimits, 'keepAliveMs' | 'maxTotal' | 'account'>): EventStreams | undefined {
    if (this.ended) return undefined;
    return (this.streams ??= createEventStreams({ ...FEED_DEFAULTS, ...config, ...this.limits }));
  }

  publish(name: string, entry: LoggedRequest): void {
    if (this.streams === undefined || this.streams.size === 0) return;
    this.summary?.touched.add(name);
    this.streams.send(name, 'request', JSON.stringify(entry));
  }

  /** A logged request's callbacks moved on (one ended): its entry again, for the page to redraw that row. */
  publishCallbacks(name: string, entry: LoggedRequest): void {
    if (this.streams === undefined || this.streams.size === 0) return;
    this.streams.send(name, 'callbacks', JSON.stringify(entry));
  }

  /** A request no endpoint answered was logged: the next summary says so. */
  publishUnmatched(): void {
    if (this.summary) this.summary.unmatched = true;
  }

  /**
   * Sends a `summary` event to the server-wide stream's readers every SUMMARY_MS while it has any
   * and `summarize` has something to say; call it when a reader opens that stream.
   */
  summarize(summarize: Summarize): void {
    if (this.summary || !this.streams) return;
    const streams = this.streams;
    const summary = {
      touched: new Set<string>(),
      unmatched: false,
      timer: setInterval(() => {
        if (streams.count(SERVER_TOPIC) === 0) {
          clearInterval(summary.timer);
          this.summary = undefined;
          return;
        }
        const data = summarize(summary.touched, summary.unmatched);
        summary.touched = new Set();
        summary.unmatched = false;
        if (data !== undefined) streams.send(SERVER_TOPIC, 'summary', data);
      }, SUMMARY_MS).unref(),
    };
    this.summary = summary;
  }

  /** Calls `closer` at close(): what else holds connections open for the page's endpoints ends with the feed (WebSockets). */
  onClose(closer: () => void): void {
    if (this.ended) closer();
    else this.closers.push(closer);
  }

  /**
   * Ends every stream (shutdown): an open event stream would otherwise hold the server's close()
   * for its whole grace period.
   */
  close(): void {
    this.ended = true;
    for (const closer of this.closers.splice(0)) closer();
    if (this.summary) clearInterval(this.summary.timer);
    this.summary = undefined;
    this.streams?.close();
  }
}

import type { LoggedRequest } from './request-log.js';

export type RequestListener = (entry: LoggedRequest) => void;

type Subscriber = { listener: RequestListener; end: () => void };

/**
 * Who is watching which endpoint's requests as they arrive (the page's live log). Listeners are
 * kept by name, not on an endpoint's stats, so a page following an endpoint keeps following it
 * across a replace. With nobody listening, publish() is one integer check: the hot path's usual case.
 */
export class RequestFeed {
  private readonly listeners = new Map<string, Set<Subscriber>>();
  private count = 0;
  private ended = false;

  /** True once close() has run: no new subscribers. */
  get closed(): boolean {
    return this.ended;
  }

  /** Listeners across all endpoints. */
  get size(): number {
    return this.count;
  }

  /**
   * Calls `listener` with each request `name` receives from now on, and `end` if the feed closes
   * first; returns the unsubscribe.
   */
  subscribe(name: string, listener: RequestListener, end: () => void): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    const subscriber = { listener, end };
    set.add(subscriber);
    this.count++;
    return () => {
      if (!set.delete(subscriber)) return;
      this.count--;
      if (set.size === 0 && this.listeners.get(name) === set) this.listeners.delete(name);
    };
  }

  publish(name: string, entry: LoggedRequest): void {
    if (this.count === 0) return;
    const set = this.listeners.get(name);
    if (set) for (const subscriber of set) subscriber.listener(entry);
  }

  /**
   * Ends every subscription (shutdown): an open event stream would otherwise hold the server's
   * close() for its whole grace period.
   */
  close(): void {
    this.ended = true;
    for (const set of this.listeners.values()) for (const subscriber of set) subscriber.end();
  }
}

import type { LoggedRequest } from './request-log.js';

export type RequestListener = (entry: LoggedRequest) => void;

/**
 * Who is watching which endpoint's requests as they arrive (the page's live log). Listeners are
 * kept by name, not on an endpoint's stats, so a page following an endpoint keeps following it
 * across a replace. With nobody listening, publish() is one integer check: the hot path's usual case.
 */
export class RequestFeed {
  private readonly listeners = new Map<string, Set<RequestListener>>();
  private count = 0;

  /** Listeners across all endpoints. */
  get size(): number {
    return this.count;
  }

  /** Calls `listener` with each request `name` receives from now on; returns the unsubscribe. */
  subscribe(name: string, listener: RequestListener): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener);
    this.count++;
    return () => {
      if (!set.delete(listener)) return;
      this.count--;
      if (set.size === 0 && this.listeners.get(name) === set) this.listeners.delete(name);
    };
  }

  publish(name: string, entry: LoggedRequest): void {
    if (this.count === 0) return;
    const set = this.listeners.get(name);
    if (set) for (const listener of set) listener(entry);
  }
}

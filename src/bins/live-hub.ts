import type { Context } from 'koa';
import { LRUCache } from 'lru-cache';
import { PassThrough } from 'node:stream';
import { HttpError } from '../http/errors.js';
import type { ProcessorChoice } from '../shared/processors.js';
import type { Panels } from '../shared/assemble.js';

export type LiveOptions = {
  /** A comment on every stream this often, so proxies and browsers keep idle streams open (JS Bin: 15 s). */
  keepAliveMs: number;
  /** Streams per bin and in all; beyond, a 503. */
  maxPerBin: number;
  maxTotal: number;
};

export const LIVE_DEFAULTS: LiveOptions = { keepAliveMs: 15_000, maxPerBin: 200, maxTotal: 5_000 };

/** A bin's panels as its editor last broadcast them: what `?live` output pages show. Never a revision. */
export type LiveState = { panels: Panels; processors: ProcessorChoice };

export type LiveHub = {
  /** Turns `ctx` into an event stream following `bin`; 503 when full. */
  subscribe(ctx: Context, bin: string): void;
  /** One event to everyone following `bin`. */
  send(bin: string, event: string, data: string): void;
  connections(bin: string): number;
  state(bin: string): LiveState | undefined;
  setState(bin: string, state: LiveState): void;
  /** A new revision: live changes are done with, followers move on to `rev`. */
  bumpRevision(bin: string, rev: number): void;
  /** Ends every stream (shutdown). */
  close(): void;
};

/** Server-Sent Events fan-out by bin, in JS Bin's event names (docs/bin-api.md § Live events). */
export function createLiveHub(options: Partial<LiveOptions> = {}): LiveHub {
  const { keepAliveMs, maxPerBin, maxTotal } = { ...LIVE_DEFAULTS, ...options };
  const streams = new Map<string, Set<PassThrough>>();
  const states = new LRUCache<string, LiveState>({ max: 1000 });
  let total = 0;

  const keepAlive = setInterval(() => {
    for (const set of streams.values()) for (const stream of set) stream.write(': keep-alive\n\n');
  }, keepAliveMs);
  keepAlive.unref();

  function send(bin: string, event: string, data: string): void {
    const set = streams.get(bin);
    if (!set) return;
    // Each line of the data needs its own "data:" field; the browser joins them back with "\n".
    const frame = `event: ${event}\n${data.split(/\r\n|\r|\n/).map((line) => `data: ${line}`).join('\n')}\n\n`;
    for (const stream of set) stream.write(frame);
  }

  const stats = (bin: string) => send(bin, 'stats', JSON.stringify({ connections: streams.get(bin)?.size ?? 0 }));

  return {
    subscribe(ctx, bin) {
      const set = streams.get(bin) ?? new Set<PassThrough>();
      if (set.size >= maxPerBin || total >= maxTotal) throw new HttpError(503, 'too many live connections, try again later');
      streams.set(bin, set);
      const stream = new PassThrough();
      set.add(stream);
      total++;
      // Output pages run on an opaque origin (CSP sandbox): they read the stream cross-origin.
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.set('Cache-Control', 'no-cache, no-transform');
      ctx.set('X-Accel-Buffering', 'no');
      ctx.type = 'text/event-stream';
      ctx.status = 200;
      ctx.body = stream;
      ctx.req.socket.setTimeout(0);
      // A retry hint, and bytes at once so the browser reports the stream open.
      stream.write('retry: 2000\n: connected\n\n');
      const drop = () => {
        if (!set.delete(stream)) return;
        total--;
        if (set.size === 0) streams.delete(bin);
        else stats(bin);
        stream.end();
      };
      ctx.req.on('close', drop);
      ctx.res.on('close', drop);
      stats(bin);
    },
    send,
    connections: (bin) => streams.get(bin)?.size ?? 0,
    state: (bin) => states.get(bin),
    setState: (bin, state) => void states.set(bin, state),
    bumpRevision(bin, rev) {
      states.delete(bin);
      send(bin, 'bump-revision', `${bin}/${rev}`);
    },
    close() {
      clearInterval(keepAlive);
      for (const set of streams.values()) for (const stream of set) stream.end();
      streams.clear();
      total = 0;
    },
  };
}

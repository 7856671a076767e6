import type { Context } from 'koa';
import { LRUCache } from 'lru-cache';
import { createEventStreams, type EventStreamLimits } from '../../http/event-stream.js';
import { corsHeaders, type CorsPolicy } from '../../http/cors.js';
import { HttpError } from '../../http/errors.js';
import type { ProcessorChoice } from '../../shared/processors.js';
import type { Panels } from '../../shared/assemble.js';
import type { Relay } from '../../store/relay.js';
import { DEFAULT_MEMORY_LIMITS, MemoryAccount } from '../../gates/memory-budget.js';

export type LiveOptions = EventStreamLimits;

export const LIVE_DEFAULTS: LiveOptions = {
  // JS Bin's keep-alive and retry.
  keepAliveMs: 15_000,
  retryMs: 2000,
  maxPerTopic: 200,
  // Well below a bin's share, so one address alone never fills a bin; a classroom behind one NAT still fits.
  maxPerAddress: 50,
  maxTotal: 5000,
  // A few whole broadcasts at the 1 MiB body limit (raw and compiled panels), so only a stalled reader falls this far.
  maxBuffered: 4 * 1024 * 1024,
};

/**
 * Output pages run on an opaque origin (CSP sandbox): they read the streams and post console
 * records cross-origin, whatever the API's own CORS origin.
 */
export const OUTPUT_PAGE_CORS: CorsPolicy = {
  origin: '*',
  methods: 'POST',
  allowHeaders: 'Authorization, Content-Type',
};

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
  /** Shares sends, states and bumps with the other instances on `relay`, both ways. */
  join(relay: Relay): void;
  /** Ends every stream (shutdown). */
  close(): void;
};

/** What one hub tells the others on a relay: each of its own sends, states and bumps. */
type Shared =
  | { send: [bin: string, event: string, data: string] }
  | { state: [bin: string, state: LiveState] }
  | { bump: [bin: string, rev: number] };

/**
 * Server-Sent Events fan-out by bin, in JS Bin's event names (docs/bin-api.md § Live events). With
 * a relay, followers on any instance get what an editor sends to any other.
 */
export function createLiveHub(options: Partial<LiveOptions> = {}): LiveHub {
  const states = new LRUCache<string, LiveState>({ max: 1000 });
  // What stalled followers hold, all together: the bin server's one anonymous-client buffer.
  const account = new MemoryAccount('streams', DEFAULT_MEMORY_LIMITS.streams);
  const streams = createEventStreams({ ...LIVE_DEFAULTS, account, ...options }, (bin, connections) => {
    if (connections > 0) streams.send(bin, 'stats', JSON.stringify({ connections }));
  });
  let relay: Relay | undefined;
  const share = (message: Shared) => relay?.publish(JSON.stringify(message));

  const local = {
    send: streams.send,
    setState: (bin: string, state: LiveState) => void states.set(bin, state),
    bump(bin: string, rev: number) {
      states.delete(bin);
      streams.send(bin, 'bump-revision', `${bin}/${rev}`);
    },
  };

  return {
    subscribe(ctx, bin) {
      const cors = Object.fromEntries(corsHeaders(OUTPUT_PAGE_CORS));
      const opened = streams.open(ctx.req, ctx.res, bin, ctx.ip, cors);
      if ('refused' in opened) {
        ctx.set('Retry-After', '5');
        throw new HttpError(503, opened.refused);
      }
      ctx.respond = false;
    },
    send(bin, event, data) {
      local.send(bin, event, data);
      share({ send: [bin, event, data] });
    },
    connections: streams.count,
    state: (bin) => states.get(bin),
    setState(bin, state) {
      local.setState(bin, state);
      share({ state: [bin, state] });
    },
    bumpRevision(bin, rev) {
      local.bump(bin, rev);
      share({ bump: [bin, rev] });
    },
    join(joined) {
      relay = joined;
      joined.subscribe((text) => {
        const message = JSON.parse(text) as Shared;
        if ('send' in message) local.send(...message.send);
        else if ('state' in message) local.setState(...message.state);
        else local.bump(...message.bump);
      });
    },
    close: streams.close,
  };
}

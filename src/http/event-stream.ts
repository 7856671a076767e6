import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';
import type { MemoryAccount } from '../gates/memory-budget.js';

export type EventStreamLimits = {
  /** A comment on every stream this often, so proxies and browsers keep idle streams open. */
  keepAliveMs: number;
  /** How long a browser's EventSource waits before it reconnects. */
  retryMs: number;
  /** Streams per topic (a bin, an endpoint), per client address (all topics) and in all. */
  maxPerTopic: number;
  maxPerAddress: number;
  maxTotal: number;
  /** Bytes a reader may fall behind by before it is dropped. */
  maxBuffered: number;
  /**
   * The accountant's account for what all readers fell behind by together (../gates/memory-budget.ts):
   * a reader whose write takes it past the limit is dropped, as one past maxBuffered is.
   */
  account?: MemoryAccount;
};

/** One open stream. Writes after it has closed do nothing. */
export type EventStreamReader = {
  /** `id` sets the browser's last event id, which it sends back as Last-Event-ID when it reconnects. */
  send(event: string, data: string, id?: string): void;
};

export type OpenResult = { reader: EventStreamReader } | { refused: string };

export type EventStreams = {
  /**
   * Admits a reader of `topic` from client `address` and starts the stream on the raw response
   * (`headers` added to ours), or says why not, having written nothing. HEAD gets the headers only.
   */
  open(
    req: IncomingMessage,
    res: ServerResponse,
    topic: string,
    address: string,
    headers?: OutgoingHttpHeaders,
  ): OpenResult;
  /** One event to every reader of `topic`. */
  send(topic: string, event: string, data: string, id?: string): void;
  count(topic: string): number;
  /** Open streams in all. */
  readonly size: number;
  readonly closed: boolean;
  /** Ends every stream and refuses new ones (shutdown). */
  close(): void;
};

type Reader = EventStreamReader & {
  address: string;
  res: ServerResponse;
  drop(): void;
  /** What this reader is charged to limits.account: its buffered bytes at its last write. */
  held: number;
};

/** Readers grouped by client address, oldest first within each: a topic's, or the server's. */
class Pool {
  private readonly byAddress = new Map<string, Set<Reader>>();
  size = 0;

  add(reader: Reader): void {
    const set = this.byAddress.get(reader.address);
    if (set) set.add(reader);
    else this.byAddress.set(reader.address, new Set([reader]));
    this.size++;
  }

  /** False when `reader` was not here. */
  delete(reader: Reader): boolean {
    const set = this.byAddress.get(reader.address);
    if (!set?.delete(reader)) return false;
    this.size--;
    if (set.size === 0) this.byAddress.delete(reader.address);
    return true;
  }

  *[Symbol.iterator](): Iterator<Reader> {
    for (const set of this.byAddress.values()) yield* set;
  }

  countOf(address: string): number {
    return this.byAddress.get(address)?.size ?? 0;
  }

  /** The oldest stream of the address holding the most, if it holds more than `address` would after joining. */
  victimFor(address: string): Reader | undefined {
    let most: Set<Reader> | undefined;
    for (const set of this.byAddress.values()) if (set.size > (most?.size ?? 0)) most = set;
    if (!most || most.size <= this.countOf(address) + 1) return undefined;
    return most.values().next().value;
  }
}

const KEEP_ALIVE = Buffer.from(': keep-alive\n\n');

/**
 * The one Server-Sent Events server. It writes each event once into a Buffer that every reader's
 * socket shares, straight to the raw response: nothing in between to buffer without bound.
 *
 * Limits, and why idle sockets cannot lock others out:
 * - a reader more than `maxBuffered` bytes behind (a stalled tab, a socket that never reads) is
 *   destroyed; a real EventSource reconnects and starts afresh;
 * - one address (an IPv6 /64 counts as one) holds at most `maxPerAddress` streams, in all topics;
 * - when a topic, or the server, is full, a newcomer evicts the oldest stream of the address that
 *   holds the most there, if that address would still hold more than the newcomer's after the
 *   swap; otherwise the newcomer is refused. Shares thus even out between addresses, so the
 *   sockets of a few addresses cannot keep a follower from another address out.
 * `onCount` hears a topic's count after every change (a bin's `stats` event).
 */
export function createEventStreams(
  limits: EventStreamLimits,
  onCount: (topic: string, count: number) => void = () => {},
): EventStreams {
  const topics = new Map<string, Pool>();
  const everyone = new Pool();
  let closed = false;

  const keepAlive = setInterval(() => {
    for (const reader of everyone) write(reader, KEEP_ALIVE);
  }, limits.keepAliveMs);
  keepAlive.unref();

  function write(reader: Reader, chunk: Buffer): void {
    const { res } = reader;
    if (res.writableEnded || res.destroyed) return;
    res.write(chunk);
    const behind = res.writableLength;
    if (behind > limits.maxBuffered) return void res.destroy();
    const { account } = limits;
    if (!account || behind === reader.held) return;
    account.charge(behind - reader.held);
    reader.held = behind;
    // 'close' gives back what it held.
    if (account.over) res.destroy();
  }

  /** The reader's buffer emptied (drain) or went with its socket (close): its charge goes. */
  function settle(reader: Reader): void {
    limits.account?.release(reader.held);
    reader.held = 0;
  }

  /** Frees a slot in `pool` for `address` by the rule above; false when none may be freed. */
  function evictFor(pool: Pool, address: string): boolean {
    const victim = pool.victimFor(address);
    if (!victim) return false;
    victim.drop();
    victim.res.destroy();
    return true;
  }

  function admit(topic: string, address: string): string | undefined {
    if (closed) return 'the server is shutting down';
    if (everyone.countOf(address) >= limits.maxPerAddress) {
      return 'too many open event streams from your address, try again later';
    }
    const inTopic = topics.get(topic);
    if (inTopic && inTopic.size >= limits.maxPerTopic && !evictFor(inTopic, address)) {
      return 'too many open event streams here, try again later';
    }
    if (everyone.size >= limits.maxTotal && !evictFor(everyone, address)) {
      return 'too many open event streams, try again later';
    }
    return undefined;
  }

  function open(
    req: IncomingMessage,
    res: ServerResponse,
    topic: string,
    rawAddress: string,
    headers: OutgoingHttpHeaders = {},
  ): OpenResult {
    const address = addressKey(rawAddress);
    const head = req.method === 'HEAD';
    const refused = head ? undefined : admit(topic, address);
    if (refused) return { refused };
    res.writeHead(200, {
      ...headers,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      // nginx buffers proxied responses unless told not to, which would hold events back.
      'X-Accel-Buffering': 'no',
    });
    const reader: Reader = {
      address,
      res,
      send: (event, data, id) => write(reader, frame(event, data, id)),
      drop: () => {},
      held: 0,
    };
    if (head) {
      res.end();
      return { reader };
    }
    req.socket.setTimeout(0);
    const inTopic = topics.get(topic) ?? new Pool();
    topics.set(topic, inTopic);
    inTopic.add(reader);
    everyone.add(reader);
    reader.drop = () => {
      if (!everyone.delete(reader)) return;
      inTopic.delete(reader);
      if (inTopic.size === 0) topics.delete(topic);
      if (!closed) onCount(topic, inTopic.size);
    };
    // 'close' comes when the client leaves, when we destroy the socket and at shutdown.
    res.once('close', reader.drop);
    res.once('close', () => settle(reader));
    res.on('drain', () => settle(reader));
    // Bytes at once, so the browser reports the stream open.
    write(reader, Buffer.from(`retry: ${limits.retryMs}\n: connected\n\n`));
    onCount(topic, inTopic.size);
    return { reader };
  }

  return {
    open,
    send(topic, event, data, id) {
      const readers = topics.get(topic);
      if (!readers) return;
      const chunk = frame(event, data, id);
      for (const reader of readers) write(reader, chunk);
    },
    count: (topic) => topics.get(topic)?.size ?? 0,
    get size() {
      return everyone.size;
    },
    get closed() {
      return closed;
    },
    close() {
      closed = true;
      clearInterval(keepAlive);
      for (const reader of [...everyone]) {
        reader.drop();
        reader.res.end();
      }
    },
  };
}

/** An event as SSE frames it: each line of the data gets its own `data:` field; the browser joins them with "\n". */
function frame(event: string, data: string, id?: string): Buffer {
  return Buffer.from(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\n${data.split(/\r\n|\r|\n/).map((line) => `data: ${line}`).join('\n')}\n\n`);
}

/**
 * The address that limits count by: IPv4 as it is (also when IPv4-mapped), IPv6 by its /64, which
 * one home or office gets whole and so could otherwise spend on countless addresses.
 */
export function addressKey(ip: string): string {
  if (ip.startsWith('::ffff:') && isIPv4(ip.slice(7))) return ip.slice(7);
  const bare = ip.split('%')[0]!;
  if (!isIPv6(bare)) return ip;
  const [head = '', tail] = bare.split('::');
  const groups = head ? head.split(':') : [];
  if (tail !== undefined) groups.push('0', '0', '0', '0'); // '::' stands for at least one zero group
  return `${groups.slice(0, 4).map((group) => parseInt(group, 16).toString(16)).join(':')}::/64`;
}

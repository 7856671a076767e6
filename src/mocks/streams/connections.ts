import type { MemoryAccount } from '../../gates/memory-budget.js';
import { addressKey } from '../../http/event-stream.js';
import type { Endpoint } from '../store/endpoint.js';

/** The hostile-input gates of WebSocket and event-stream endpoints (docs/security.md). */
export type StreamLimits = {
  /** Open connections from one client address (an IPv6 /64 counts as one), WebSockets and event streams together. */
  maxPerAddress: number;
  /** Open connections to one endpoint. */
  maxPerEndpoint: number;
  /** Largest WebSocket message, in bytes; a bigger one closes the connection with 1009. */
  maxMessageBytes: number;
  /** Messages a WebSocket client may send a second; past it the connection closes with 1008. */
  maxMessagesPerSecond: number;
  /** Bytes a client may fall behind by before it is dropped (a socket that never reads). */
  maxBuffered: number;
};

export const STREAM_LIMITS: StreamLimits = {
  maxPerAddress: 50,
  maxPerEndpoint: 1000,
  maxMessageBytes: 1024 * 1024,
  maxMessagesPerSecond: 100,
  maxBuffered: 1024 * 1024,
};

/**
 * What one open connection is charged to the `connections` memory account, in bytes: its socket, the
 * ws parser and sender, its script's timers and template input. Measured at 10.8 KB a connection for
 * server and `ws` client together (heapUsed + arrayBuffers after GC, 2,000 idle connections in one
 * process): the server's share is less, so this bound holds with room.
 */
export const CONNECTION_BYTES = 16 * 1024;

/** One open connection of an endpoint, as the page lists it and broadcasts reach it. */
export type Connection = {
  id: number;
  endpoint: Endpoint;
  ip: string;
  since: string;
  /** Sends text as is, unlogged (a broadcast, logged once for all); false when it could not. */
  send(text: string): boolean;
  /** Ends the connection (WebSocket close code and reason; an event stream just ends). */
  end(code: number, reason: string): void;
};

/** The open connections, by endpoint name and by client address, and the admission rule. */
export class Connections {
  private readonly byName = new Map<string, Set<Connection>>();
  private readonly byAddress = new Map<string, number>();
  private next = 1;

  constructor(
    readonly limits: StreamLimits,
    private readonly account?: MemoryAccount,
  ) {}

  /** Why a new connection to `name` from `ip` is refused, or undefined (then call add). */
  refusal(name: string, ip: string): string | undefined {
    if ((this.byAddress.get(addressKey(ip)) ?? 0) >= this.limits.maxPerAddress) {
      return `too many open connections from your address (at most ${this.limits.maxPerAddress}); close some and try again`;
    }
    if ((this.byName.get(name)?.size ?? 0) >= this.limits.maxPerEndpoint) {
      return `endpoint '${name}' has too many open connections (at most ${this.limits.maxPerEndpoint}); try again later`;
    }
    if (this.account && !this.account.fits(CONNECTION_BYTES)) return 'the server holds too many open connections; try again later';
    return undefined;
  }

  /** A number for the next connection: unique on this server, never reused. */
  number(): number {
    return this.next++;
  }

  add(connection: Connection): void {
    const name = connection.endpoint.record.name;
    const set = this.byName.get(name) ?? new Set();
    set.add(connection);
    this.byName.set(name, set);
    const address = addressKey(connection.ip);
    this.byAddress.set(address, (this.byAddress.get(address) ?? 0) + 1);
    this.account?.charge(CONNECTION_BYTES);
  }

  /** Idempotent: a connection is removed once however many ways it ends. */
  remove(connection: Connection): void {
    const name = connection.endpoint.record.name;
    const set = this.byName.get(name);
    if (!set?.delete(connection)) return;
    if (set.size === 0) this.byName.delete(name);
    const address = addressKey(connection.ip);
    const count = (this.byAddress.get(address) ?? 1) - 1;
    if (count === 0) this.byAddress.delete(address);
    else this.byAddress.set(address, count);
    this.account?.release(CONNECTION_BYTES);
  }

  of(name: string): Connection[] {
    return [...(this.byName.get(name) ?? [])];
  }

  all(): Connection[] {
    return [...this.byName.values()].flatMap((set) => [...set]);
  }

  get size(): number {
    let size = 0;
    for (const set of this.byName.values()) size += set.size;
    return size;
  }
}

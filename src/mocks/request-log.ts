import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Answered } from './record.js';

/** How many requests each endpoint remembers, and how much of each body. */
export const LOG_SIZE = 100;
export const LOG_BODY_BYTES = 64 * 1024;

/** One request an endpoint received: what a webhook sender actually sent, and which answer it got. */
export type LoggedRequest = Answered & {
  time: string;
  method: string;
  /** Path and query, as sent. */
  url: string;
  ip: string | undefined;
  headers: IncomingHttpHeaders;
  /** The body as UTF-8 text, cut at LOG_BODY_BYTES. */
  body: string;
  bodyTruncated: boolean;
};

/** Per-endpoint counters kept in memory; they outlive a replace and go with a delete. */
export type EndpointStats = {
  hits: number;
  requests: RequestLog;
  /** The next response of `pick: sequence` (taken modulo the number of responses). */
  sequence: number;
};

export function newStats(): EndpointStats {
  return { hits: 0, requests: new RequestLog(), sequence: 0 };
}

/** A ring of the last LOG_SIZE requests; `newestFirst()` copies them out. */
export class RequestLog {
  private readonly ring: LoggedRequest[] = [];
  private next = 0;

  add(entry: LoggedRequest): void {
    if (this.ring.length < LOG_SIZE) this.ring.push(entry);
    else this.ring[this.next] = entry;
    this.next = (this.next + 1) % LOG_SIZE;
  }

  newest(): LoggedRequest | undefined {
    return this.ring.length === 0 ? undefined : this.ring[(this.next - 1 + LOG_SIZE) % LOG_SIZE];
  }

  newestFirst(): LoggedRequest[] {
    const out: LoggedRequest[] = [];
    for (let i = 1; i <= this.ring.length; i++) {
      out.push(this.ring[(this.next - i + LOG_SIZE) % LOG_SIZE]!);
    }
    return out;
  }
}

/**
 * Reads a request body, keeping at most LOG_BODY_BYTES and draining the rest, then calls `done`.
 * A client that goes away mid-body never calls `done`.
 */
export function readLoggedBody(req: IncomingMessage, done: (body: string, truncated: boolean) => void): void {
  const chunks: Buffer[] = [];
  let kept = 0;
  let truncated = false;
  req.on('data', (chunk: Buffer) => {
    if (kept >= LOG_BODY_BYTES) {
      truncated = true;
      return;
    }
    const room = LOG_BODY_BYTES - kept;
    if (chunk.length > room) {
      truncated = true;
      chunk = chunk.subarray(0, room);
    }
    chunks.push(chunk);
    kept += chunk.length;
  });
  req.on('end', () => done(Buffer.concat(chunks, kept).toString('utf8'), truncated));
}

/** The client's address: with trustProxy the first X-Forwarded-For entry, as Koa's `ctx.ip` does. */
export function clientIp(req: IncomingMessage, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress;
}

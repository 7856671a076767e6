import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { RequestFeed } from '../log/feed.js';
import { clientIp, isoNow, LOG_BODY_BYTES, type LoggedRequest } from '../log/request-log.js';
import type { SocketEvent } from '../record/record.js';
import type { Endpoint } from '../store/endpoint.js';
import type { MockStore } from '../store/store.js';

/**
 * Writes one event of a connection into its endpoint's request log, the page's live feed and the
 * other instances' logs, as the endpoint server does for a request: the entry names the upgrade
 * request (its headers only on `open`, so a chatty connection does not log them per message).
 */
export type StreamLogger = (
  endpoint: Endpoint,
  from: LogSource,
  socket: SocketEvent,
  body?: string,
  status?: number,
) => void;

/** What a connection's entries say of the request that opened it (or of the API request that broadcast). */
export type LogSource = { method: string; url: string; ip: string | undefined; headers: IncomingHttpHeaders };

export function logSource(req: IncomingMessage, trustProxy: boolean): LogSource {
  return { method: req.method ?? 'GET', url: req.url ?? '', ip: clientIp(req, trustProxy), headers: req.headers };
}

export function streamLogger(store: MockStore, feed: RequestFeed): StreamLogger {
  return (endpoint, from, socket, body = '', status) => {
    // A UTF-16 unit is at most 3 UTF-8 bytes: a shorter text is never cut, and its bytes need no count.
    const truncated = body.length > LOG_BODY_BYTES / 3 && Buffer.byteLength(body) > LOG_BODY_BYTES;
    const entry: LoggedRequest = {
      time: isoNow(),
      method: from.method,
      url: from.url,
      ip: from.ip,
      headers: socket.event === 'open' ? from.headers : {},
      body: truncated ? Buffer.from(body).subarray(0, LOG_BODY_BYTES).toString() : body,
      bodyTruncated: truncated,
      response: null,
      status: status ?? null,
      socket,
    };
    endpoint.stats.requests.add(entry);
    feed.publish(endpoint.record.name, entry);
    store.share(endpoint.record.name, entry);
  };
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { corsHeaders } from '../../http/cors.js';
import type { RequestFeed } from '../log/feed.js';
import { ENDPOINT_CORS } from '../serve/answer-head.js';
import type { Endpoint } from '../store/endpoint.js';
import type { MockStore } from '../store/store.js';
import { Connections, STREAM_LIMITS, type StreamLimits } from './connections.js';
import { createEventEndpoints } from './events.js';
import { createSockets } from './sockets.js';
import { streamLogger, type LogSource } from './stream-log.js';

export type StreamServerOptions = {
  store: MockStore;
  /** Every open, message and close is published here; its close() ends every connection (shutdown). */
  feed: RequestFeed;
  cors: boolean;
  trustProxy: boolean;
  maxRequestCpu: number;
  keepAliveMs: number;
  limits?: Partial<StreamLimits>;
};

/** One open connection, as GET /api/endpoint/<name>/connections lists it. */
export type ConnectionSummary = { connection: number; ip: string; since: string };

export type StreamServer = {
  /** The endpoint server's hook: answers `endpoint` when it is a WebSocket or event-stream endpoint; false otherwise. */
  serve(req: IncomingMessage, res: ServerResponse, endpoint: Endpoint, params: Record<string, string>): boolean;
  /** Sends `text` to every open connection of `name` and logs it once (as `from`, the API request); how many it reached. */
  broadcast(name: string, text: string, from: LogSource): number;
  connections(name: string): ConnectionSummary[];
  /** Open connections in all. */
  readonly size: number;
  /** Ends every connection (1001 for WebSockets) and clears every timer. */
  close(): void;
};

/** How often open connections are checked against their endpoint: one replaced or deleted ends them. */
const SWEEP_MS = 250;

export function createStreamServer(options: StreamServerOptions): StreamServer {
  const { store, feed } = options;
  const connections = new Connections({ ...STREAM_LIMITS, ...options.limits }, store.memory.connections);
  const log = streamLogger(store, feed);
  const current = (endpoint: Endpoint) => store.get(endpoint.record.name) === endpoint;
  const refuse = (res: ServerResponse, status: number, message: string, head: Record<string, string> = {}) => {
    const body = JSON.stringify({ success: false, message });
    const cors = options.cors ? Object.fromEntries(corsHeaders(ENDPOINT_CORS)) : {};
    res.writeHead(status, { ...head, ...cors, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };
  const { cors, trustProxy, maxRequestCpu } = options;
  const shared = { connections, log, cors, trustProxy, maxRequestCpu, current, refuse, account: store.memory.streams };
  const sockets = createSockets(shared);
  const events = createEventEndpoints({ ...shared, keepAliveMs: options.keepAliveMs });

  let sweep: NodeJS.Timeout | undefined;
  let seen = store.revision();
  const watch = () => {
    sweep ??= setInterval(() => {
      if (connections.size === 0) {
        clearInterval(sweep);
        sweep = undefined;
        return;
      }
      if (store.revision() === seen) return;
      seen = store.revision();
      for (const connection of connections.all()) {
        if (!current(connection.endpoint)) connection.end(1012, 'the endpoint changed');
      }
    }, SWEEP_MS).unref();
  };

  let closed = false;
  const server: StreamServer = {
    serve(req, res, endpoint, params) {
      const { kind } = endpoint.record;
      if (kind !== 'websocket' && kind !== 'sse') return false;
      if (closed) refuse(res, 503, 'the server is shutting down');
      else if (kind === 'websocket') sockets(req, res, endpoint, params);
      else events.serve(req, res, endpoint, params);
      watch();
      return true;
    },
    broadcast(name, text, from) {
      const open = connections.of(name);
      let sent = 0;
      for (const connection of open) if (connection.send(text)) sent++;
      const endpoint = store.get(name);
      // Once for all, as connection 0: a broadcast to a thousand connections is one entry, not a thousand.
      if (endpoint) log(endpoint, from, { connection: 0, event: 'out' }, text);
      return sent;
    },
    connections: (name) => connections.of(name).map(({ id, ip, since }) => ({ connection: id, ip, since })),
    get size() {
      return connections.size;
    },
    close() {
      closed = true;
      clearInterval(sweep);
      for (const connection of connections.all()) connection.end(1001, 'the server is shutting down');
      events.close();
    },
  };
  feed.onClose(() => server.close());
  return server;
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { corsHeaders, isPreflight, preflightHeaders, type CorsPolicy } from '../http/cors.js';
import type { RequestFeed } from './request-feed.js';
import { clientIp, readLoggedBody, type LoggedRequest } from './request-log.js';
import { hasBody } from '../http/read-body.js';
import type { Endpoint, MockStore } from './store.js';
import type { Logger } from '../server/logger.js';

export type ServeEndpointOptions = {
  store: MockStore;
  cors: boolean;
  trustProxy: boolean;
  logger: Logger;
  /** Told of every request as it is logged (the page's live log). */
  feed: RequestFeed;
};

/** Answers one request for `/endpoint/<name>` on the raw node objects. */
export type ServeEndpoint = (req: IncomingMessage, res: ServerResponse, name: string) => void;

/**
 * CORS for the mock endpoints (not the API: keeping the API same-origin means a web page the user
 * visits cannot change their mocks). Any origin may read and send anything.
 */
const ENDPOINT_CORS: CorsPolicy = {
  origin: '*',
  methods: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  privateNetwork: true,
};

// Statuses that never carry content (RFC 9110 15.3.5, 15.3.6, 15.4.5; docs/mock-api.md): the data is not sent.
const NO_BODY = new Set([204, 205, 304]);

/**
 * The one implementation of `/endpoint/<name>`, for every method: both the pre-Koa hot path and
 * the Koa route call it, so CORS, hit counts and the request log cannot differ between them.
 * Per request it does one map lookup, counts and logs the request, waits out the delay on a
 * timer and writes headers and body prepared once per endpoint version.
 */
export function createEndpointServer(options: ServeEndpointOptions): ServeEndpoint {
  const { store, cors, trustProxy, logger, feed } = options;
  // Keyed by the Endpoint object, which a write replaces, so a stale head is never used.
  const heads = new WeakMap<Endpoint, string[]>();
  const headOf = (endpoint: Endpoint): string[] => {
    let head = heads.get(endpoint);
    if (!head) heads.set(endpoint, (head = buildHead(endpoint, cors)));
    return head;
  };

  const serve: ServeEndpoint = (req, res, name) => {
    if (cors && isPreflight(req)) return answerPreflight(req, res);
    const endpoint = store.get(name);
    if (!endpoint) return notFound(req, res, name, cors);
    const time = new Date().toISOString();
    const received = (body: string, bodyTruncated: boolean) => {
      endpoint.stats.hits++;
      const entry: LoggedRequest = {
        time,
        method: req.method ?? 'GET',
        url: req.url ?? '',
        ip: clientIp(req, trustProxy),
        headers: req.headers,
        body,
        bodyTruncated,
      };
      endpoint.stats.requests.add(entry);
      feed.publish(endpoint.record.name, entry);
      const respond = () => send(req, res, endpoint, headOf(endpoint));
      const given = endpoint.record.delay;
      const delay = typeof given === 'number' ? given : given.min + Math.random() * (given.max - given.min);
      if (delay <= 0) return respond();
      // A timer, never a wait; a client that leaves during the delay takes its timer with it.
      const timer = setTimeout(respond, delay);
      res.once('close', () => clearTimeout(timer));
    };
    if (hasBody(req)) readLoggedBody(req, received);
    else received('', false);
  };
  // Outside Koa there is no error middleware: a bug here must not take the process down.
  return (req, res, name) => {
    try {
      serve(req, res, name);
    } catch (err) {
      logger.error(`${req.method} ${req.url}: ${(err as Error).stack ?? String(err)}`);
      if (!res.headersSent) sendJson(req, res, 500, { success: false, message: 'internal server error' }, false);
      else res.destroy();
    }
  };
}

function send(req: IncomingMessage, res: ServerResponse, endpoint: Endpoint, head: string[]): void {
  if (res.destroyed) return;
  res.writeHead(endpoint.record.statusCode, head);
  if (req.method === 'HEAD' || NO_BODY.has(endpoint.record.statusCode)) res.end();
  else res.end(endpoint.body);
}

/** Content type and length, CORS, then the endpoint's own headers, which win over ours by name. */
function buildHead(endpoint: Endpoint, cors: boolean): string[] {
  const custom = endpoint.record.headers ?? {};
  const names = Object.keys(custom);
  const given = new Set(names.map((name) => name.toLowerCase()));
  const head: string[] = [];
  const add = (name: string, value: string) => {
    if (!given.has(name.toLowerCase())) head.push(name, value);
  };
  const status = endpoint.record.statusCode;
  if (!NO_BODY.has(status)) {
    add('Content-Type', 'application/json; charset=utf-8');
    head.push('Content-Length', String(endpoint.body.length));
  } else if (status === 205) {
    // Unlike 204 and 304, HTTP/1.1 framing does not know 205 is empty (RFC 9112 6.3): say so, and the
    // connection stays reusable (RFC 9110 15.3.6 allows Content-Length: 0, forbids it on 204).
    head.push('Content-Length', '0');
  }
  // Custom headers are exposed so scripts can read them.
  if (cors) for (const [name, value] of corsHeaders(ENDPOINT_CORS, names)) add(name, value);
  for (const name of names) head.push(name, custom[name]!);
  return head;
}

/** A preflight's 204: every method, the headers the browser asked for. Not a hit, not logged. */
function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(204, preflightHeaders(ENDPOINT_CORS, req).flat());
  res.end();
}

function notFound(req: IncomingMessage, res: ServerResponse, name: string, cors: boolean): void {
  sendJson(req, res, 404, { success: false, message: `no endpoint named '${name}'` }, cors);
}

function sendJson(req: IncomingMessage, res: ServerResponse, status: number, value: unknown, cors: boolean): void {
  const body = Buffer.from(JSON.stringify(value));
  const head = ['Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(body.length)];
  if (cors) head.push(...corsHeaders(ENDPOINT_CORS).flat());
  res.writeHead(status, head);
  res.end(req.method === 'HEAD' ? undefined : body);
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { BIN_HEADER_KEY, MOCK_TOKEN_HEADER_KEY, NEW_BIN_CLAIM, parseTokenClaim } from '../shared/bin-claim.js';
import type { Handler } from './listen.js';
import type { MockTokens } from './mock-token.js';

/** Which side of the mocks a request is for: `/endpoint/…`, or the page and management API under `/mocks/`. */
export type MockSide = 'endpoint' | 'mocks';

export type MockGateOptions = {
  /**
   * True when the request carries what the bins' owner shows (the key, or the bins' session cookie);
   * it takes the key out of the request it passes, so no mock log or --proxy upstream ever sees it.
   */
  owner(req: IncomingMessage): boolean;
  tokens: MockTokens;
  /**
   * The mock server answers CORS preflights itself (without --no-cors): a 204 naming methods and headers,
   * no endpoint reached, nothing logged. A preflight carries no credentials, so these pass; with
   * --no-cors an OPTIONS could reach an endpoint, and needs the key like any request.
   */
  preflights: boolean;
  /** What a refusal says is needed. */
  message: string;
};

/** Says whether a request may go on to the mock server; answers it (401) when not. */
export type MockGate = (req: IncomingMessage, res: ServerResponse, side: MockSide) => boolean;

/** What the joint handler runs with --private-mocks: the gate, and the route that gives the editor tokens. */
export type PrivateMocks = { gate: MockGate; tokenRoute: Handler };

/**
 * Where the editor asks for its preview's token (`GET /mocks/token?claim=BIN/REV`): under `/mocks/`, so only
 * past the gate, with the key or the session; the mock server itself has no such path.
 */
export const TOKEN_ROUTE = '/token';

/**
 * The gate of `snippetkit serve --private-mocks` (docs/serve.md, "Private mocks"), run by the joint
 * handler before the mock server sees the request (and so before it takes out the bins' session
 * cookie): the owner's key or session, or for `/endpoint/…` alone a bin page's unexpired token for
 * the claim it sends (mock-token.ts). A refusal is the mock server's 401 JSON, sent before any body is
 * read, so no endpoint is hit, counted or logged.
 */
export function mockGate({ owner, tokens, preflights, message }: MockGateOptions): MockGate {
  const body = JSON.stringify({ success: false, message });
  const head: Record<string, string | number> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'WWW-Authenticate': 'token',
  };
  // A bin page's call is cross-origin (its origin is opaque): with CORS on it may read why it was refused.
  if (preflights) head['Access-Control-Allow-Origin'] = '*';
  return (req, res, side) => {
    // http/cors.ts isPreflight, which this floor may not import: an OPTIONS naming the method to come.
    if (preflights && req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) return true;
    const token = req.headers[MOCK_TOKEN_HEADER_KEY];
    if (token !== undefined) withoutHeader(req, MOCK_TOKEN_HEADER_KEY);
    if (owner(req)) return true;
    // Never for the management API or the page: a token is a bin page's, to call endpoints only.
    if (side === 'endpoint' && tokens.valid(token, req.headers[BIN_HEADER_KEY])) return true;
    res.writeHead(401, head);
    res.end(req.method === 'HEAD' ? undefined : body);
    return false;
  };
}

/**
 * `GET /mocks/token?claim=fumugi/3` (or `?claim=new` at `/`) → `{ success, claim, token }`: for the editor's
 * preview, a `srcdoc` frame with no output page to carry a token. Only the owner gets here (the gate runs first), who may call every
 * endpoint anyway: a token is no more than the owner's own right, for the preview's calls.
 */
export function tokenRoute(tokens: MockTokens): Handler {
  return (req, res) => {
    const send = (status: number, value: object, extra: Record<string, string> = {}) => {
      const body = JSON.stringify(value);
      const head = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' };
      res.writeHead(status, { ...head, ...extra });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(405, { success: false, message: 'use GET' }, { Allow: 'GET, HEAD' });
    }
    const claim = parseTokenClaim(new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get('claim') ?? undefined);
    if (claim === undefined) {
      const message = `claim must be a bin and revision, as in ?claim=fumugi/3, or ${NEW_BIN_CLAIM} for a bin not saved yet`;
      return send(400, { success: false, message, field: 'claim' });
    }
    send(200, { success: true, claim, token: tokens.mint(claim) });
  };
}

/** Takes header `name` (lower-case) out of `req`, from headers and rawHeaders alike. */
export function withoutHeader(req: IncomingMessage, name: string): void {
  delete req.headers[name];
  const raw: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() !== name) raw.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
  req.rawHeaders = raw;
}

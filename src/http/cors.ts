import type { IncomingMessage } from 'node:http';
import type { Context, Middleware } from 'koa';

/**
 * CORS, once for both servers. Two callers are raw node handlers (the pre-Koa fast paths), so the
 * policy is plain functions returning header pairs, with a thin Koa wrapper, rather than @koa/cors.
 */

/** Who may read a server's answers from another origin. No credentials, so `*` is allowed. */
export type CorsPolicy = {
  /** `*`, or the one origin allowed. */
  origin: string;
  /** What a preflight is told the browser may send. */
  methods: string;
  /** Headers allowed when a preflight names none; when it names some, those are allowed. */
  allowHeaders?: string;
  /** Answer Chrome's Private Network Access preflights (a public page calling a server on localhost). */
  privateNetwork?: boolean;
};

export type HeaderPairs = [name: string, value: string][];

/** True for a CORS preflight: an OPTIONS naming the method the browser wants to send. */
export function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}

/** The CORS headers of an actual response under `policy`, exposing `expose` to scripts. */
export function corsHeaders(policy: CorsPolicy, expose: string[] = []): HeaderPairs {
  const pairs: HeaderPairs = [['Access-Control-Allow-Origin', policy.origin]];
  if (expose.length > 0) pairs.push(['Access-Control-Expose-Headers', expose.join(', ')]);
  if (policy.origin !== '*') pairs.push(['Vary', 'Origin']);
  return pairs;
}

/** The headers of a preflight's answer under `policy` (the caller decides what counts as a preflight). */
export function preflightHeaders(policy: CorsPolicy, req: IncomingMessage): HeaderPairs {
  const pairs: HeaderPairs = [
    ['Access-Control-Allow-Origin', policy.origin],
    ['Access-Control-Allow-Methods', policy.methods],
    ['Access-Control-Max-Age', '600'],
  ];
  const vary = policy.origin === '*' ? [] : ['Origin'];
  const asked = req.headers['access-control-request-headers'];
  // The answer echoes what was asked, so caches must key on it.
  vary.push('Access-Control-Request-Headers');
  const allowed = asked || policy.allowHeaders;
  if (allowed) pairs.push(['Access-Control-Allow-Headers', allowed]);
  if (policy.privateNetwork && req.headers['access-control-request-private-network'] === 'true') {
    pairs.push(['Access-Control-Allow-Private-Network', 'true']);
  }
  if (vary.length > 0) pairs.push(['Vary', vary.join(', ')]);
  return pairs;
}

/**
 * Sets `policy`'s headers on a Koa response; answers any OPTIONS with a 204 and returns true then
 * (the route is done). Before authentication: preflights carry no key.
 */
export function applyCors(ctx: Context, policy: CorsPolicy): boolean {
  const preflight = ctx.method === 'OPTIONS';
  for (const [name, value] of preflight ? preflightHeaders(policy, ctx.req) : corsHeaders(policy)) {
    if (name === 'Vary') ctx.vary(value);
    else ctx.set(name, value);
  }
  if (preflight) ctx.status = 204;
  return preflight;
}

/** applyCors on every response of the routes it wraps. */
export function corsMiddleware(policy: CorsPolicy): Middleware {
  return async (ctx, next) => {
    if (!applyCors(ctx, policy)) await next();
  };
}

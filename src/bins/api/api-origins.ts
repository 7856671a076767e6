import type { Context, Middleware } from 'koa';
import { corsMiddleware } from '../../http/cors.js';
import { originGate, originPolicy } from '../../http/origins.js';
import { isUnder } from '../../http/under.js';
import type { BinConfig } from '../config/config.js';
import { apiCorsPolicy } from './fast-read.js';

/** What an allowed page's preflight for an owner's request is told. */
const OWNER_CORS = { methods: 'GET, HEAD, PUT, POST, DELETE, OPTIONS', allowHeaders: 'Authorization, Content-Type' };

/** Methods of the public part: reading bins and saving them. */
const PUBLIC_METHODS = new Set(['GET', 'HEAD', 'POST', 'OPTIONS']);

/**
 * The bin API under the Origins gate (docs/security.md). JS Bin's API is for pages, so its
 * public part stays open to `cors.origin` (`*` by default): reading a bin, and saving one where
 * anonymous writes are allowed. What acts as the server's owner is for the server's own pages,
 * loopback pages and `cors.ownerOrigins` only: any request with the key (`Authorization` or
 * `?api_key=`), the list of every bin, deletes, templates, the key session. Another page's owner
 * writes are a 403 before the key is even checked, its owner reads carry no CORS headers, and its
 * preflights for them are answered without any, so the browser sends nothing.
 */
export function binApiOrigins(config: BinConfig): { owner: Middleware; open: Middleware } {
  const policy = originPolicy(config.cors.ownerOrigins);
  const hint = (origin: string) =>
    `only this server's own pages and localhost pages may use the key, list or delete bins; ` +
    (origin === 'null' ? 'only "*" in cors.ownerOrigins lets such pages in' : `add ${origin} to cors.ownerOrigins to allow them`);
  const gate = originGate({ policy, cors: OWNER_CORS, hint });
  const open = corsMiddleware(apiCorsPolicy(config));
  return {
    /** Before the key is checked and before any route under /api (live, compile) answers. */
    owner: (ctx, next) => {
      if (!isUnder('/api', ctx.path.toLowerCase()) || !isOwnerRequest(ctx)) return next();
      ctx.state.ownerRequest = true;
      return gate(ctx, next);
    },
    /** The public part's CORS, at the head of the API's routes; owner's requests were answered by `owner`. */
    open: (ctx, next) => (ctx.state.ownerRequest ? next() : open(ctx, next)),
  };
}

/**
 * True for a request under /api that acts as the owner, or for a preflight announcing one (its
 * method, an `Authorization` header). The path is compared lower-cased: the router matches /API too.
 */
export function isOwnerRequest(ctx: Context): boolean {
  const preflight = ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method') !== '';
  const method = preflight ? ctx.get('Access-Control-Request-Method').toUpperCase() : ctx.method;
  const keyed = preflight
    ? ctx.get('Access-Control-Request-Headers').toLowerCase().split(',').some((name) => name.trim() === 'authorization')
    : ctx.get('Authorization') !== '';
  const path = ctx.path.toLowerCase().replace(/\/+$/, '');
  return keyed || ctx.query.api_key !== undefined || !PUBLIC_METHODS.has(method) || path === '/api' || path === '/api/session';
}

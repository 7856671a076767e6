import type { Middleware } from 'koa';

/**
 * CORS for the API (JS Bin's users asked for it and never got it): any origin by default, the
 * Authorization header allowed, preflights answered here before authentication (they carry no key).
 */
export function apiCors(origin: string): Middleware {
  return async (ctx, next) => {
    ctx.set('Access-Control-Allow-Origin', origin);
    if (origin !== '*') ctx.vary('Origin');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'GET, HEAD, POST, DELETE, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', ctx.get('Access-Control-Request-Headers') || 'Authorization, Content-Type');
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    await next();
  };
}

import type { Context } from 'koa';

/**
 * Answers with `value` as JSON, serialized here: the same bytes and Content-Type Koa would send for an
 * object body. Koa tests an object body with `instanceof Response`, and the first touch of Node's global
 * Response loads its fetch (undici, with HTTP/2 and TLS): some 40 ms of a server's first answer, for a
 * class no route sends (bench/README.md, start-up).
 */
export function sendJson(ctx: Context, value: unknown): void {
  // In full: Koa's short name ('json') would be looked up in mime-types' table, which the CLI bundle
  // loads only when a file or a short name needs it (scripts/bundle/mime-types.cjs).
  if (!/\bjson\b/i.test(ctx.type)) ctx.type = 'application/json; charset=utf-8';
  ctx.body = JSON.stringify(value);
}

import type { Middleware } from 'koa';

/** True for `prefix` itself and paths below it (not `/apiary` for `/api`). */
export function isUnder(prefix: string, path: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** Runs `middleware` only for `prefix` and paths below it; other requests pass straight on. */
export function under(prefix: string, middleware: Middleware): Middleware {
  return (ctx, next) => (isUnder(prefix, ctx.path) ? middleware(ctx, next) : next());
}

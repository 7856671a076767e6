import type { Middleware } from 'koa';

/** Runs `middleware` only for `prefix` and paths below it; other requests pass straight on. */
export function under(prefix: string, middleware: Middleware): Middleware {
  return (ctx, next) =>
    ctx.path === prefix || ctx.path.startsWith(`${prefix}/`) ? middleware(ctx, next) : next();
}

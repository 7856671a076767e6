import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { Stream } from 'node:stream';

/**
 * ETags and 304s for 200 answers to GET and HEAD below it: the ETag a route set itself (a kept page's,
 * hashed once), else a strong one from the bytes of a text or buffer body, or a weak one from the size and
 * time of a file being streamed (koa-static sets both). Koa's ctx.fresh (the `fresh` package) then compares
 * If-None-Match as RFC 9110 says: lists, `*` and weak forms. Other statuses get neither.
 */
export function conditionalGet(): Middleware {
  return async (ctx, next) => {
    await next();
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.status !== 200) return;
    if (!ctx.response.get('ETag') && !tagBody(ctx)) return;
    if (!ctx.fresh) return;
    const body: unknown = ctx.body;
    // The file stream koa-static opened would otherwise hold its descriptor until collected.
    if (body instanceof Stream) (body as Stream & { destroy(): void }).destroy();
    ctx.status = 304;
  };
}

/** Sets the ETag of the body; false when it cannot have one. */
function tagBody(ctx: Context): boolean {
  const body: unknown = ctx.body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    ctx.etag = createHash('sha1').update(body).digest('base64url');
  } else if (body instanceof Stream && ctx.response.lastModified && ctx.length !== undefined) {
    ctx.response.etag = `W/"${ctx.length.toString(16)}-${ctx.response.lastModified.getTime().toString(16)}"`;
  } else {
    return false;
  }
  return true;
}

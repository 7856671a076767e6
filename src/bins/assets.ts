import type { Middleware } from 'koa';
import koaStatic from 'koa-static';
import { fileURLToPath } from 'node:url';
import { HttpError } from '../http/errors.js';

/** The editor's bundle, built by scripts/build-client.mjs; the same folder from dist/bins and src/bins. */
export const PUBLIC_DIR = fileURLToPath(new URL('../../dist/public/', import.meta.url));

/** The files of `root` under /static/, served by the server itself (no CDN: the editor works offline). */
export function clientAssets(root = PUBLIC_DIR): Middleware {
  const serve = koaStatic(root, { index: false, gzip: false, brotli: false });
  const none = async () => {};
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/static/')) return next();
    const original = ctx.path;
    ctx.path = original.slice('/static'.length);
    try {
      // koa-send refuses paths leaving the root (with a 403) and decodes them itself.
      await serve(ctx, none);
    } finally {
      ctx.path = original;
    }
    if (ctx.body == null) throw new HttpError(404, 'not found');
  };
}

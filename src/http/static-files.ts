import type { Middleware } from 'koa';
import koaStatic from 'koa-static';
import { HttpError } from './errors.js';

export type StaticFilesOptions = {
  /** Folders searched in turn; the first that has the path wins. */
  roots: string[];
  /** The file served for a folder path such as /static/; none by default. */
  index?: string;
  /** The 404 message for `path` (as requested) when no root has it. */
  notFound: (path: string) => string;
};

/**
 * The one server of files under /static/, for both servers. A path that leaves the folder (`..`,
 * encoded or not) or holds a NUL is answered as what it is to us, not an asset (404), rather than
 * with koa-send's 403/400; a broken %-escape is a 400. No precompressed variants are looked for.
 */
export function staticFiles({ roots, index, notFound }: StaticFilesOptions): Middleware {
  const servers = roots.map((root) => koaStatic(root, { index: index ?? false, gzip: false, brotli: false }));
  const none = async () => {};
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/static/')) return next();
    const original = ctx.path;
    const inside = original.slice('/static'.length);
    let decoded: string;
    try {
      decoded = decodeURIComponent(inside);
    } catch {
      throw new HttpError(400, 'malformed path');
    }
    if (decoded.split(/[\\/]/).includes('..') || decoded.includes('\0')) throw new HttpError(404, notFound(original));
    ctx.path = inside;
    try {
      for (const serve of servers) {
        await serve(ctx, none);
        if (ctx.body != null) return;
      }
    } finally {
      ctx.path = original;
    }
    throw new HttpError(404, notFound(original));
  };
}

import type { Middleware } from 'koa';
import koaStatic from 'koa-static';
import { fileURLToPath } from 'node:url';
import { HttpError } from '../http/errors.js';

/** The page's HTML and CSS; from dist/mocks and src/mocks alike this is <package>/templates/mocks. */
export const DEFAULT_ASSETS = fileURLToPath(new URL('../../templates/mocks/', import.meta.url));

/** The page's script (CodeMirror included), bundled by scripts/build-client.mjs; no CDN. */
export const PAGE_BUNDLE = fileURLToPath(new URL('../../dist/mock-page/', import.meta.url));

/**
 * Serves the files of `roots` (the first that has a path wins) under /static/, and redirects
 * / and /static there. Redirects are relative, so behind a proxy that mounts us under a path
 * prefix the browser stays under that prefix.
 */
export function staticAssets(roots: string[]): Middleware {
  const servers = roots.map((root) => koaStatic(root, { index: 'index.html' }));
  const none = async () => {};
  const serve: Middleware = async (ctx) => {
    for (const one of servers) {
      await one(ctx, none);
      if (ctx.body != null) return;
    }
  };
  return async (ctx, next) => {
    if (ctx.path === '/' || ctx.path === '/static') {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
      ctx.redirect('static/'); // from / and from /static alike
      return;
    }
    if (!ctx.path.startsWith('/static/')) return next();
    const original = ctx.path;
    let inside: string;
    try {
      inside = decodeURIComponent(original.slice('/static'.length));
    } catch {
      throw new HttpError(400, 'malformed path');
    }
    // koa-send refuses these too (403); answer them as what they are to us: not an asset.
    if (inside.split(/[\\/]/).includes('..') || inside.includes('\0')) throw notFound(original);
    ctx.path = original.slice('/static'.length);
    try {
      await serve(ctx, none);
    } finally {
      ctx.path = original;
    }
    if (ctx.body == null && ctx.status === 404) throw notFound(original);
  };
}

function notFound(path: string): HttpError {
  return new HttpError(404, `no file at ${path}`);
}

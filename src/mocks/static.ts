import type { Middleware } from 'koa';
import { fileURLToPath } from 'node:url';
import { staticFiles } from '../http/static-files.js';

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
  const files = staticFiles({ roots, index: 'index.html', notFound: (path) => `no file at ${path}` });
  return async (ctx, next) => {
    if (ctx.path === '/' || ctx.path === '/static') {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
      ctx.redirect('static/'); // from / and from /static alike
      return;
    }
    return files(ctx, next);
  };
}

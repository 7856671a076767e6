import type { Middleware } from 'koa';
import { staticFiles } from '../http/static-files.js';
import { packageFile } from '../server/package-files.js';

/** The page's HTML and CSS. */
export const DEFAULT_ASSETS = packageFile('templates/mocks/');

/** The page's script (CodeMirror included), bundled by scripts/build-client.mjs; no CDN. */
export const PAGE_BUNDLE = packageFile('dist/mock-page/');

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

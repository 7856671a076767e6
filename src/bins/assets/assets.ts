import type { Middleware } from 'koa';
import { staticFiles } from '../../http/static-files.js';
import { packageFile } from '../../server/package-files.js';
import { assetVersions } from './asset-versions.js';

/** The editor's bundle, built by scripts/build-client.mjs. */
export const PUBLIC_DIR = packageFile('dist/public/');

/** The bundles' versions, for the pages that name them. */
export const bundles = assetVersions(PUBLIC_DIR);

/**
 * The files of `root` under /static/, served by the server itself (no CDN: the editor works offline).
 * An address with the file's current `?v=` never changes, so it is kept for a year; others revalidate.
 */
export function clientAssets(): Middleware {
  const serve = staticFiles({ roots: [PUBLIC_DIR], notFound: () => 'not found' });
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/static/')) return next();
    await serve(ctx, next);
    const v = ctx.query.v;
    if (ctx.status === 200 && typeof v === 'string' && bundles.current(ctx.path.slice('/static/'.length), v)) {
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    }
  };
}

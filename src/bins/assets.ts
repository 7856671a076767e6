import type { Middleware } from 'koa';
import { fileURLToPath } from 'node:url';
import { staticFiles } from '../http/static-files.js';

/** The editor's bundle, built by scripts/build-client.mjs; the same folder from dist/bins and src/bins. */
export const PUBLIC_DIR = fileURLToPath(new URL('../../dist/public/', import.meta.url));

/** The files of `root` under /static/, served by the server itself (no CDN: the editor works offline). */
export function clientAssets(root = PUBLIC_DIR): Middleware {
  return staticFiles({ roots: [root], notFound: () => 'not found' });
}

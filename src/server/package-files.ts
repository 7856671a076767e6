import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's own folder, ending in a separator: the nearest one above this module that holds a
 * package.json. Code runs from src/ (tests), from tsc's dist/ and from the CLI's bundle in
 * dist/bundle/ (scripts/build-cli.mjs), so a path relative to a module's own URL would differ
 * between them; the files the package reads (its package.json, config defaults, templates, the
 * browser bundles, the workers) are all found from here.
 */
export const PACKAGE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** A file or folder of the package, from its root: `packageFile('templates/')`. */
export function packageFile(path: string): string {
  return PACKAGE_ROOT + path;
}

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir.endsWith(sep) ? dir : dir + sep;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

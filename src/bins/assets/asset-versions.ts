import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';

/** How pages name a bundle: `static/editor.js?v=<hash of its bytes>`. */
export type AssetVersions = {
  /** The versioned path of `name` (relative, under static/); unversioned when the file is missing. */
  path(name: string): string;
  /** Whether `version` is the current one of `name`: the answer may then be kept for a year. */
  current(name: string, version: string): boolean;
};

/**
 * Versions of the files in `root`, hashed once per change of size or time (a rebuild under a running
 * server gets a new version). The file names stay as they are: `/static/embed.js` is named by other sites.
 */
export function assetVersions(root: string): AssetVersions {
  const known = new Map<string, { stamp: string; version: string }>();
  function version(name: string): string | undefined {
    let stats;
    try {
      stats = statSync(root + name);
    } catch {
      return undefined;
    }
    const stamp = `${stats.size}:${stats.mtimeMs}`;
    let entry = known.get(name);
    if (entry?.stamp !== stamp) {
      entry = { stamp, version: createHash('sha256').update(readFileSync(root + name)).digest('base64url').slice(0, 16) };
      known.set(name, entry);
    }
    return entry.version;
  }
  return {
    path(name) {
      const v = version(name);
      return v ? `static/${name}?v=${v}` : `static/${name}`;
    },
    current: (name, given) => /^[\w-]+(\.[\w-]+)*$/.test(name) && version(name) === given,
  };
}

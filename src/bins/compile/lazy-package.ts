import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A compiler package, loaded on first use (the pool's `load`) and then kept; `setUp` runs once on it
 * before anyone else does (the Files gate put in front of its file reads).
 */
export function lazyPackage<T>(name: string, setUp?: (module: T) => void): () => T {
  let module: T | undefined;
  return () => {
    if (module === undefined) {
      const loaded = require(name) as T;
      setUp?.(loaded);
      module = loaded;
    }
    return module;
  };
}

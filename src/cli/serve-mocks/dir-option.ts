import { createDirSource } from '../../mocks/sources/dir.js';
import type { SourceLoader } from '../../mocks/sources/loader.js';
import type { MockStore } from '../../mocks/store/store.js';
import type { Logger } from '../../server/logger.js';
import { requirePath } from '../common/flag-path.js';

export type DirOption = {
  dir: string;
  /** The largest file the folder's Files gate reads (--max-body): recordings written there keep under it. */
  maxFileBytes: number;
  loader: SourceLoader;
  /** The store's preload: reads every file once. */
  load(store: MockStore): Promise<void>;
  watch(): void;
  /** Applies one file under the folder now (see DirSource.reload). */
  reload(rel: string): Promise<void>;
  close(): void;
  /** What the banner adds: `  (12 from files in mocks/)`. */
  summary(): string;
};

/** `loader` is shared with --openapi, so GET /api/sources lists the problems of both. */
type DirLimits = { loader: SourceLoader; maxBody: number; maxEndpoints: number; logger: Logger };

/** serve-mocks --dir: the folder is checked up front, so a typo is a start-up error rather than an empty server. */
export function openDirSource(dir: string | undefined, limits: DirLimits): DirOption | undefined {
  if (dir === undefined) return undefined;
  requirePath('--dir', dir, 'folder');
  const { logger, loader } = limits;
  const source = createDirSource({
    dir,
    loader,
    maxFileBytes: limits.maxBody,
    maxFiles: limits.maxEndpoints,
    print: logger.info,
    warn: logger.error,
  });
  let loaded = 0;
  return {
    dir,
    maxFileBytes: limits.maxBody,
    loader,
    async load(store) {
      loaded = (await source.load(store)).endpoints;
    },
    watch: () => source.watch(),
    reload: (rel) => source.reload(rel),
    close: () => source.close(),
    summary: () => `  (${loaded} from files in ${dir})`,
  };
}

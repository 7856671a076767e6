import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { FileRefused } from '../../gates/file-gate.js';
import { RecordTextError } from '../record/text.js';
import { describeChange, describeProblem, type SourceLoader, type SourceParser } from './loader.js';
import { readSourceFile } from './read-source.js';
import type { MockStore } from '../store/store.js';

export type FileSourceOptions = {
  /** The file as the user gave it (`api/openapi.yaml`); its source is `file:<file>`. */
  file: string;
  loader: SourceLoader;
  /** Its records, e.g. an OpenAPI document's operations. */
  parse: SourceParser;
  /** Quiet time before a burst of changes is applied, in milliseconds. */
  debounceMs?: number;
  print(line: string): void;
  warn(line: string): void;
};

/** One watched file: `load` from the store's preload, then `watch`. */
export type FileSource = {
  load(store: MockStore): Promise<void>;
  watch(): void;
  close(): void;
};

/**
 * A single file whose records are endpoints (serve-mocks --openapi), kept in step with the store like
 * a --dir folder. Its folder is watched rather than the file: an editor's save-by-rename replaces the
 * file, and a watch on the old one would go quiet.
 */
export function createFileSource(options: FileSourceOptions): FileSource {
  const { file, loader, parse } = options;
  const name = basename(file);
  let store: MockStore | undefined;
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  let chain = Promise.resolve();
  let closed = false;

  const apply = async (quiet: boolean) => {
    // Through the Files gate (read-source.ts): a file it refuses (too large, not a regular file) is a
    // problem like one that does not parse, and its endpoints keep their last good version.
    let text: string | undefined;
    let refused: FileRefused | undefined;
    try {
      text = readSourceFile(file);
    } catch (err) {
      if (!(err instanceof FileRefused)) throw err;
      if (err.code !== 'ENOENT') refused = err;
    }
    if (closed) return;
    const failing = () => {
      throw new RecordTextError(refused!.reason, undefined);
    };
    const result = await loader.apply(store!, file, refused ? '' : text, refused ? failing : parse);
    if ('message' in result) return options.warn(`! ${describeProblem(result)}`);
    if (!quiet) for (const line of describeChange(result, file)) options.print(line);
    for (const problem of result.problems ?? []) options.warn(`! ${describeProblem(problem)}`);
  };

  return {
    async load(opened) {
      store = opened;
      await apply(true);
    },
    watch() {
      watcher = watch(dirname(file), (_event, changed) => {
        if (changed !== null && changed.toString() !== name) return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          chain = chain.then(() => apply(false)).catch((err: Error) => options.warn(`! ${file}: ${err.message}`));
        }, options.debounceMs ?? 25);
      });
      watcher.on('error', (err) => options.warn(`! ${file}: watching stopped: ${err.message}`));
    },
    close() {
      closed = true;
      clearTimeout(timer);
      watcher?.close();
    },
  };
}

import { rename, writeFile } from 'node:fs/promises';
import { createFileSource, type FileSource } from '../../mocks/sources/file.js';
import { dbFileParser } from '../../mocks/sources/db-file-parser.js';
import { fileSource, type SourceLoader } from '../../mocks/sources/loader.js';
import type { MockStore } from '../../mocks/store/store.js';
import type { Logger } from '../../server/logger.js';
import { requirePath } from '../common/flag-path.js';

export type DbOptions = { writeDb: boolean; loader: SourceLoader; logger: Logger; debounceMs?: number };

/**
 * serve-mocks --db: a json-server database, each key a collection endpoint. Without --write-db the
 * file is only read, and watched: a collection whose data the user edits starts again from the file.
 * With --write-db, changes are written back (debounced, temp file then rename, flushed at close)
 * and the file is not watched: our own writes would otherwise come back as edits.
 */
export function openDbSource(file: string | undefined, options: DbOptions): FileSource | undefined {
  if (file === undefined) return undefined;
  requirePath('--db', file, 'file');
  const { loader, logger } = options;
  let read: Record<string, unknown> = {};
  const parse = dbFileParser((db) => (read = db));
  const source = createFileSource({ file, loader, parse, print: logger.info, warn: logger.error });
  if (!options.writeDb) return source;

  let store: MockStore | undefined;
  let timer: NodeJS.Timeout | undefined;
  let writing = Promise.resolve();
  const write = async () => {
    const db: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(read)) {
      const endpoint = store!.get(name);
      // A key not served (`$schema`, one refused) is written back as the file had it.
      db[name] = endpoint?.source === fileSource(file) ? await store!.collections.read(endpoint.record) : value;
    }
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, `${JSON.stringify(db, null, 2)}\n`);
    await rename(temp, file);
  };
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    writing = writing.then(write).catch((err: Error) => logger.error(`! ${file}: not written: ${err.message}`));
    return writing;
  };
  return {
    async load(opened) {
      store = opened;
      await source.load(opened);
      opened.collections.onChange((name) => {
        if (store!.get(name)?.source !== fileSource(file)) return;
        clearTimeout(timer);
        timer = setTimeout(() => void flush(), options.debounceMs ?? 100);
      });
    },
    watch: () => undefined,
    close() {
      source.close();
      // The store waits for held work before it closes: the last changes, and a write under way, reach the file.
      if (timer) void flush();
      store?.hold(writing);
    },
  };
}

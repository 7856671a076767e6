import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { FileRefused, readGatedFile, type FileGate } from '../../gates/file-gate.js';
import { recordFileParser } from './record-file-parser.js';
import { formatOf, RecordTextError } from '../record/text.js';
import { describeChange, describeProblem, type SourceLoader } from './loader.js';
import type { MockStore } from '../store/store.js';

export type DirSourceOptions = {
  /** The folder as the user gave it; file names in messages and sources start with it. */
  dir: string;
  loader: SourceLoader;
  /** Larger files are refused unread (--max-body). */
  maxFileBytes: number;
  /** Files read at most (--max-endpoints): each file holds at least one endpoint. */
  maxFiles: number;
  /** Quiet time before a burst of changes is applied, in milliseconds. */
  debounceMs?: number;
  /** Changes applied (`+ users/list (mocks/users/list.yaml)`). */
  print(line: string): void;
  /** Files refused, with file, line, column and field. */
  warn(line: string): void;
};

export type DirSource = {
  /** Reads every record file once; call from the store's preload. */
  load(store: MockStore): Promise<{ files: number; endpoints: number }>;
  /** Applies changes as files are added, changed, renamed or removed; only the files named by an event are read. */
  watch(): void;
  /** Applies one file (relative to the folder) now, in turn with the watcher's changes, and resolves once it is. */
  reload(rel: string): Promise<void>;
  close(): void;
};

/** A folder of endpoint record files (*.json, *.yaml, *.yml), recursively, kept in step with the store. */
export function createDirSource(options: DirSourceOptions): DirSource {
  const { dir, loader } = options;
  const debounceMs = options.debounceMs ?? 25;
  // Relative paths (forward slashes) of the files applied, good or not.
  const known = new Set<string>();
  let store: MockStore | undefined;
  let watcher: FSWatcher | undefined;
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  // When the pending burst began.
  let since = 0;
  let chain = Promise.resolve();
  // Set at shutdown: changes still queued are not applied to a store that is closing.
  let closed = false;

  const label = (rel: string) => posix.join(dir.replaceAll('\\', '/'), rel);
  // Every record file is read through the Files gate: in the folder once links are followed, a regular file, capped.
  const gate: FileGate = { root: dir, maxBytes: options.maxFileBytes, limitName: '--max-body', rootName: dir };

  /**
   * Applies one file's text; undefined when it is gone, which removes its endpoints; a FileRefused is a
   * problem like a file that does not parse (its endpoints keep their last good version). Returns endpoints added.
   */
  const apply = async (rel: string, text: string | FileRefused | undefined, quiet: boolean): Promise<number> => {
    if (text === undefined && !known.delete(rel)) return 0;
    if (text !== undefined) known.add(rel);
    const file = label(rel);
    const parse =
      text instanceof FileRefused
        ? () => {
            throw new RecordTextError(text.reason, undefined);
          }
        : recordFileParser(rel.replace(/\.[^./]+$/, ''));
    const result = await loader.apply(store!, file, text instanceof FileRefused ? '' : text, parse);
    if ('message' in result) {
      options.warn(`! ${describeProblem(result)}`);
      return 0;
    }
    if (!quiet) for (const line of describeChange(result, file)) options.print(line);
    return result.added.length;
  };

  /** Reads a file and applies it; one the gate refuses is reported and changes nothing, one gone is removed. */
  const applyFile = async (rel: string, quiet = false): Promise<number> => {
    let text: string | FileRefused | undefined;
    try {
      text = readGatedFile(rel, gate).toString('utf8');
    } catch (err) {
      if (!(err instanceof FileRefused)) throw err;
      if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR') text = err;
    }
    return apply(rel, text, quiet);
  };

  /** An event's path: a file, a folder moved in or out, or something gone. */
  const applyPath = async (rel: string) => {
    const found = await lstat(join(dir, rel)).catch(() => undefined);
    const under = rel === '' ? '' : `${rel}/`;
    if (!found || found.isDirectory()) {
      // A folder moved in or out: its files come and go with it; files already known have their own events.
      const now = found ? new Set(await scan(dir, rel, options.maxFiles, options.warn)) : new Set<string>();
      for (const file of [...known]) if (file.startsWith(under) && !now.has(file)) await apply(file, undefined, false);
      for (const file of now) if (!known.has(file)) await applyFile(file);
      if (!found && known.has(rel)) await apply(rel, undefined, false);
      return;
    }
    if (formatOf(rel)) await applyFile(rel);
  };

  const flush = () => {
    timer = undefined;
    const paths = [...pending];
    pending = new Set();
    chain = chain
      .then(async () => {
        for (const path of paths) if (!closed) await applyPath(path);
      })
      .catch((err: Error) => options.warn(`! ${dir}: ${err.message}`));
  };

  return {
    async load(opened) {
      store = opened;
      const files = await scan(dir, '', options.maxFiles, options.warn);
      let endpoints = 0;
      // In name order, so a name given by two files goes to the first.
      for (const rel of files) endpoints += await applyFile(rel, true);
      return { files: files.length, endpoints };
    },
    watch() {
      watcher = watch(dir, { recursive: true }, (_event, name) => {
        // No name: the platform lost track; look at the whole folder again.
        const rel = name === null ? '' : name.toString().replaceAll('\\', '/');
        if (rel.split('/').some((part) => part.startsWith('.'))) return;
        pending.add(rel);
        // Each event restarts the quiet time, but a folder that never goes quiet is applied every few periods.
        if (timer && performance.now() - since < debounceMs * 4) clearTimeout(timer);
        else if (timer) return;
        else since = performance.now();
        timer = setTimeout(flush, debounceMs);
      });
      watcher.on('error', (err) => options.warn(`! ${dir}: watching stopped: ${err.message}`));
    },
    reload(rel) {
      const done = chain.then(() => (closed ? undefined : applyPath(rel)));
      chain = done.catch((err: Error) => options.warn(`! ${dir}: ${err.message}`));
      return done;
    },
    close() {
      closed = true;
      clearTimeout(timer);
      watcher?.close();
    },
  };
}

/**
 * Record files under `dir/rel`, relative to `dir`, sorted. Hidden entries (.git) are skipped, and so
 * are linked folders, so a link loop cannot make the walk endless; past `max` files the rest are left out.
 */
async function scan(dir: string, rel: string, max: number, warn: (line: string) => void): Promise<string[]> {
  const files: string[] = [];
  let left = 0;
  const walk = async (sub: string) => {
    const entries = await readdir(join(dir, sub), { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = sub === '' ? entry.name : `${sub}/${entry.name}`;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isSymbolicLink() && (await stat(join(dir, path)).catch(() => undefined))?.isDirectory()) {
        warn(`! ${join(dir, path)}: a linked folder is not followed`);
      } else if (formatOf(entry.name)) {
        if (files.length < max) files.push(path);
        else left++;
      }
    }
  };
  await walk(rel);
  const these = left === 1 ? '1 file' : `${left} files`;
  if (left > 0) warn(`! ${these} under ${dir} left out: at most ${max} files are read (--max-endpoints)`);
  return files;
}

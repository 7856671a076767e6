/**
 * The Files gate (docs/security.md, "Files"): the one place that decides whether a file named by user
 * content may be read: an OpenAPI `$ref`, a --dir record file, --db and --openapi files, a file
 * `mock import` sends, a bin preprocessor's import. Every reader of such a path calls readGatedFile.
 * Plumbing: it imports only Node's fs and path, so the compile child can load it too.
 */
import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

export type FileGate = {
  /**
   * The folder a read must stay inside once every link is followed; a relative path is taken from it.
   * null: no file may be read at all (a bin's preprocessor source).
   */
  root: string | null;
  /** Larger files are refused unread. */
  maxBytes: number;
  /** What sets maxBytes, named in its refusal (`--max-body`). */
  limitName?: string;
  /** The root as a refusal names it (`the document's folder`); the root itself by default. */
  rootName?: string;
};

/** A bin's preprocessor source reads no file: every import, url() or plugin it names is refused here. */
export const NO_FILES: FileGate = { root: null, maxBytes: 0 };

/**
 * Why a file was not read. `reason` reads after the path (`mocks/a.yaml: it leads outside mocks
 * through a link`); `code` is the file system's own (ENOENT…) when it said no, undefined when the gate did.
 */
export class FileRefused extends Error {
  override name = 'FileRefused';
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly code?: string,
  ) {
    super(reason);
  }
}

// Linux names the file an open descriptor reached; elsewhere the descriptor is matched to the path by inode.
const FD_PATHS = '/proc/self/fd';
// O_NONBLOCK: opening a FIFO does not wait for a writer (it is then refused as not a regular file).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * The bytes of `path` (relative to the gate's root, or absolute), or a FileRefused: when there is no
 * root, when the file is outside the root after `realpath` (`..`, an absolute path, a link leading out),
 * when it is not a regular file (a folder, FIFO, device), or when it has more than `maxBytes` bytes. The
 * place is checked again on the open descriptor, so a link swapped in between the check and the open
 * is caught too. Synchronous: callers include synchronous compiler hooks, and --dir reads thousands
 * of small files at start faster so.
 */
export function readGatedFile(path: string, gate: FileGate): Buffer {
  if (gate.root === null) throw new FileRefused(path, 'reading files is not allowed');
  const root = realRoot(path, gate as FileGate & { root: string });
  const named = resolve(gate.root, path);
  const where = gate.rootName ?? gate.root;
  // Outside as written: refused before the file system is asked, so the answer says nothing of what is there.
  if (!inside(resolve(gate.root), named)) throw new FileRefused(path, `it is outside ${where}`);
  const real = fsStep(path, () => realpathSync.native(named));
  if (!inside(root, real)) throw new FileRefused(path, `it leads outside ${where} through a link`);
  const fd = fsStep(path, () => openSync(real, OPEN_FLAGS));
  try {
    const info = fstatSync(fd);
    // Where it is comes first: of a file outside, not even its kind is told.
    const opened = openedPath(fd, real, info);
    if (opened === undefined || !inside(root, opened)) {
      throw new FileRefused(path, `it leads outside ${where} through a link`);
    }
    if (!info.isFile()) throw new FileRefused(path, 'not a regular file');
    if (info.size > gate.maxBytes) {
      const limit = gate.limitName ? ` (${gate.limitName})` : '';
      throw new FileRefused(path, `the file has ${info.size} bytes; at most ${gate.maxBytes} are read${limit}`);
    }
    return readAll(fd, info.size);
  } finally {
    closeSync(fd);
  }
}

// A gate's root, once real: it is the operator's folder (a flag, the document's), not user content, and at
// 10,000 --dir files a realpath of it for each file cost a tenth of the load.
const realRoots = new WeakMap<FileGate, string>();

/**
 * Whether `path` (a file or folder that exists), once every link is followed, is `root` or under it,
 * itself once real: for a writer into a gated folder (a recording into --dir), so that what it writes
 * lands where the gate will read it, and never through a link out of the folder.
 */
export function leadsInside(path: string, root: string): boolean {
  try {
    return inside(realpathSync.native(root), realpathSync.native(path));
  } catch {
    return false;
  }
}

function realRoot(path: string, gate: FileGate & { root: string }): string {
  const known = realRoots.get(gate);
  if (known !== undefined) return known;
  try {
    const real = realpathSync.native(gate.root);
    realRoots.set(gate, real);
    return real;
  } catch (err) {
    throw new FileRefused(path, `its folder ${gate.root} cannot be read: ${reasonOf(err)}`, codeOf(err));
  }
}

/** `child` is `folder` or under it; both real, absolute paths. */
function inside(folder: string, child: string): boolean {
  const rel = relative(folder, child);
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** Where the open descriptor really is: Linux says; elsewhere `real` if it is still the same file. */
function openedPath(fd: number, real: string, info: { dev: number; ino: number }): string | undefined {
  try {
    return readlinkSync(`${FD_PATHS}/${fd}`);
  } catch {
    const now = statSync(real, { throwIfNoEntry: false });
    return now && now.dev === info.dev && now.ino === info.ino ? real : undefined;
  }
}

function readAll(fd: number, size: number): Buffer {
  const buffer = Buffer.alloc(size);
  let read = 0;
  while (read < size) {
    const n = readSync(fd, buffer, read, size - read, read);
    if (n === 0) break;
    read += n;
  }
  return buffer.subarray(0, read);
}

/** Runs a file system call; its error becomes a FileRefused keeping the code (ENOENT: the file is gone). */
function fsStep<T>(path: string, step: () => T): T {
  try {
    return step();
  } catch (err) {
    throw new FileRefused(path, reasonOf(err), codeOf(err));
  }
}

function codeOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

function reasonOf(err: unknown): string {
  switch (codeOf(err)) {
    case 'ENOENT':
      return 'no such file';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'too many links, or a link where the file was';
    default:
      return (err as Error).message;
  }
}

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { RecordShape } from '../../mocks/record/recording.js';
import { leadsInside } from '../../gates/file-gate.js';
import { fileErrorReason } from '../common/errors.js';
import { formatRecords } from '../common/record-files.js';
import { ensureFolder } from '../common/out-folder.js';

/**
 * Writes one endpoint record as `<dir>/<name>.json`, in the layout `mock export` writes and `--dir`
 * loads (the name is the file's, so it is not repeated inside). A temp file renamed into place: a
 * watcher never reads half a file, and a crash leaves the last good version. It keeps to what the
 * folder's Files gate will read back: a file past `maxBytes` (--max-body) is not written, nor one whose
 * folder is a link leading out of `dir`.
 */
export async function writeRecordFile(dir: string, shape: RecordShape, maxBytes: number): Promise<string> {
  const { name, ...rest } = shape;
  const path = join(dir, `${name}.json`);
  const folder = dirname(path);
  // Dot-named and not .json, so a folder watcher skips it; beside the file, so the rename stays in one folder.
  const temp = join(folder, `.${basename(name)}.${randomBytes(6).toString('hex')}.tmp`);
  const text = formatRecords(rest, 'json');
  const size = Buffer.byteLength(text);
  if (size > maxBytes) {
    throw new Error(`not written to ${path}: it would have ${size} bytes; at most ${maxBytes} are read (--max-body)`);
  }
  try {
    await ensureFolder(dir);
    // A name with folders (a --dir file's endpoint): each level is made, or found, inside the folder.
    const outside = new Error(`it leads outside ${dir} through a link`);
    if (!leadsInside(nearestExisting(folder), dir)) throw outside;
    await ensureFolder(folder);
    if (!leadsInside(folder, dir)) throw outside;
    await writeFile(temp, text);
    await rename(temp, path);
    return path;
  } catch (err) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw new Error(`cannot write ${path}: ${fileErrorReason(err)}`, { cause: err });
  }
}

function nearestExisting(folder: string): string {
  let at = folder;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RecordShape } from '../../mocks/proxy/recorder.js';
import { fileErrorReason } from '../common/errors.js';
import { formatRecords } from '../common/record-files.js';
import { ensureFolder } from '../common/out-folder.js';

/**
 * Writes one endpoint record as `<dir>/<name>.json`, in the layout `mock export` writes and `--dir`
 * loads (the name is the file's, so it is not repeated inside). A temp file renamed into place: a
 * watcher never reads half a file, and a crash leaves the last good version.
 */
export async function writeRecordFile(dir: string, shape: RecordShape): Promise<string> {
  const { name, ...rest } = shape;
  const path = join(dir, `${name}.json`);
  // Dot-named and not .json, so a folder watcher skips it.
  const temp = join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await ensureFolder(dir);
    await writeFile(temp, formatRecords(rest, 'json'));
    await rename(temp, path);
    return path;
  } catch (err) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw new Error(`cannot write ${path}: ${fileErrorReason(err)}`, { cause: err });
  }
}

import { realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { readGatedFile } from '../../gates/file-gate.js';

/**
 * The most a single --openapi or --db file, or a file an OpenAPI document's `$ref` names, may have.
 * Larger than --max-body (which caps --dir record files): a json-server database written back by
 * --write-db, or a large API's document, passes 1 MB; a file past this one is refused unread.
 */
export const MAX_SOURCE_FILE_BYTES = 32 * 1024 * 1024;

/**
 * The text of a mock source file named on the command line (--openapi, --db, `mock import FILE`), through
 * the Files gate: a regular file of at most MAX_SOURCE_FILE_BYTES. The user chose this file, so a link
 * to it is followed wherever it leads (its root is its real folder); what it names in turn is gated
 * by the document's own folder. Throws the gate's FileRefused (code ENOENT when the file is gone).
 */
export function readSourceFile(file: string): string {
  const real = realOrAsIs(resolve(file));
  return readGatedFile(real, { root: dirname(real), maxBytes: MAX_SOURCE_FILE_BYTES }).toString('utf8');
}

/** A missing file keeps its name, for the gate to say so. */
function realOrAsIs(file: string): string {
  try {
    return realpathSync.native(file);
  } catch {
    return file;
  }
}

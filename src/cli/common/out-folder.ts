import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CliError, EXIT, fileErrorReason } from './errors.js';

/**
 * Makes sure `dir` is a folder, creating the missing levels one at a time. Node's recursive mkdir
 * spins forever on paths the file system refuses (e.g. under /proc), and says only EEXIST when the
 * path is a file: both become a CliError (exit 7) that says what is wrong.
 */
export async function ensureFolder(dir: string): Promise<void> {
  const missing: string[] = [];
  let existing = dir;
  for (;;) {
    try {
      const found = await stat(existing);
      if (!found.isDirectory()) {
        throw new CliError(`cannot write into ${dir}: ${existing} is a file, not a folder`, EXIT.file);
      }
      break;
    } catch (err) {
      if (err instanceof CliError) throw err;
      const parent = dirname(existing);
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || parent === existing) {
        throw new CliError(`cannot write into ${dir}: ${fileErrorReason(err)}`, EXIT.file);
      }
      missing.unshift(existing);
      existing = parent;
    }
  }
  for (const level of missing) {
    try {
      await mkdir(level);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue; // made meanwhile by someone else: fine when it is a folder
      // ENOENT right after its parent was found: the file system does not allow folders there
      const why = code === 'ENOENT' ? 'folders cannot be created there' : fileErrorReason(err);
      throw new CliError(`cannot create the folder ${level}: ${why}`, EXIT.file);
    }
  }
}

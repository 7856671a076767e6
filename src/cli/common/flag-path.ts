import { statSync } from 'node:fs';
import { CliError, EXIT } from './errors.js';

/**
 * The file or folder a flag names must be there at start: a typo is a start-up error (exit 2), not
 * a server that quietly serves nothing.
 */
export function requirePath(flag: string, path: string, kind: 'file' | 'folder'): void {
  const found = statSync(path, { throwIfNoEntry: false });
  if (kind === 'file' ? found?.isFile() : found?.isDirectory()) return;
  throw new CliError(`${flag} ${path}: ${found ? `not a ${kind}` : `no such ${kind}`}`, EXIT.usage);
}

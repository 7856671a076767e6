import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { userDataPath } from '../../store/data-file.js';

/**
 * The key a bin server on a loopback address makes for itself when none is configured (docs/config.md,
 * "The generated key"), so that a first `serve-bins` can save: kept in the user's data folder, readable
 * by the user alone, and found there by the client commands of the same user.
 */
export function generatedKeyFile(): string {
  return userDataPath('api-key');
}

/** A problem with the key file that the user must fix; its message names the file. */
export class KeyFileError extends Error {
  override name = 'KeyFileError';
}

export type KeptKey = {
  key: string;
  /** Where it is kept. */
  file: string;
  /** The file could be read by others: it was made readable by its owner alone, but the key may have been seen. */
  tightened: boolean;
};

// Ours are 32 characters of base64url, which `?api_key=` and `Authorization: token` carry unchanged.
const KEY_SHAPE = /^[A-Za-z0-9_-]{16,200}$/;

/**
 * The key in `file`, made when there is none. Two servers starting at once get the same key: the new
 * key is written whole to a file of its own first, then linked into place, which fails if another got
 * there first (then that one's key is read).
 */
export function keepGeneratedKey(file = generatedKeyFile()): KeptKey {
  const existing = readGeneratedKey(file);
  if (existing) {
    if (existing.readableByOthers) chmodSync(file, 0o600);
    return { key: existing.key, file, tightened: existing.readableByOthers };
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const key = randomBytes(24).toString('base64url');
  try {
    writeFileSync(draft, `${key}\n`, { mode: 0o600, flag: 'wx' });
    linkSync(draft, file);
    return { key, file, tightened: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new KeyFileError(`cannot make the key file ${file}: ${(err as Error).message}`);
    return { key: readGeneratedKey(file)!.key, file, tightened: false };
  } finally {
    try {
      unlinkSync(draft);
    } catch {
      // never written
    }
  }
}

/** The key a local server made, or undefined when there is no such file. */
export function readGeneratedKey(file = generatedKeyFile()): { key: string; readableByOthers: boolean } | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new KeyFileError(`cannot read the key file ${file}: ${(err as Error).message}`);
  }
  const key = text.trim();
  if (!KEY_SHAPE.test(key)) throw new KeyFileError(`the key file ${file} holds no key: delete it, and a new one is made at the next start`);
  return { key, readableByOthers: (statSync(file).mode & 0o077) !== 0 };
}

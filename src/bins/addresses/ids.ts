import { randomInt } from 'node:crypto';

const CONSONANTS = 'bcdfghjklmnpqrstvwxyz';
const VOWELS = 'aeiou';

/**
 * The joint server's words (`snippetkit serve`, docs/serve.md): its mock page and API, its endpoints and
 * its whoami. No new bin takes one on any bin server, so a data file moves between serve-bins and serve: a
 * save that names one is a 400 naming it. A bin saved under one before they were reserved is still read
 * (its pages on serve-bins, its API anywhere), so no data file loses a bin to the words.
 */
const JOINT_WORDS = new Set(['mocks', 'endpoint', 'whoami']);

/** Words that are routes or files, never bins. */
const RESERVED = new Set([
  'api', 'save', 'edit', 'static', 'status', 'latest', 'quiet', 'watch', 'source', 'download', 'new', 'clone',
  'help', 'login', 'logout', 'register', 'list', 'embed', 'settings', 'admin', 'account', 'auth', 'user', 'users',
  'runner', 'dist', 'assets', 'js', 'css', 'html', 'images', 'fonts', 'public', 'templates', 'index', 'null',
  'undefined', 'robots', 'favicon', 'events', 'live', 'stats', 'compile', 'console', 'template',
]);

/** The longest id accepted in a request; longer ones are nobody's bin. */
export const MAX_ID_LENGTH = 64;
/** The characters of a bin id as an address may spell it (any case; normalizeId lowercases). */
export const ID_CHARS = '[A-Za-z0-9_-]+';
/** A revision as an address names it: a number, or `latest`. */
export const REV_CHARS = '\\d+|latest';
const VALID = new RegExp(`^(?:${ID_CHARS})$`);

/** The canonical (lowercase) form of a requested id, or undefined when it cannot name a bin. */
export function normalizeId(raw: string): string | undefined {
  const id = raw.toLowerCase();
  if (id.length === 0 || id.length > MAX_ID_LENGTH || !VALID.test(id) || RESERVED.has(id)) return undefined;
  return id;
}

/**
 * The joint server's word `raw` spells (any case), or undefined. A save that names one is refused by
 * name; the older reserved words keep their 404, as JS Bin's clients have always seen.
 */
export function jointWord(raw: string): string | undefined {
  const id = raw.toLowerCase();
  return JOINT_WORDS.has(id) ? id : undefined;
}

/**
 * A pronounceable id like JS Bin's (`rovoqe`): consonant, vowel, consonant... `length` letters.
 * 6 letters give 21^3 * 5^3 ≈ 1.2 million ids; callers lengthen on collision.
 */
export function randomId(length: number): string {
  let id = '';
  for (let i = 0; i < length; i++) {
    const letters = i % 2 === 0 ? CONSONANTS : VOWELS;
    id += letters[randomInt(letters.length)];
  }
  return RESERVED.has(id) ? randomId(length) : id;
}

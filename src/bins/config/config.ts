import { z } from 'zod/v3';
import {
  flagSchema as flag,
  originListSchema,
  settingsObject as object,
  sizeSchema,
  textSchema as text,
  wholeNumberSchema as wholeNumber,
} from '../../server/setting-schemas.js';
import { framing } from './security-headers.js';

const KEY = 'null or a non-empty string';
const SOURCE_LIST = `a CSP frame-ancestors source list such as "'self'", "'none'", "*" or origins`;

/** The bin server's settings, under JS Bin's own key names (config.default.json holds the defaults). */
export const binConfigSchema = object({
  api: object({
    /** Anyone may GET without a key. */
    allowAnonymousRead: flag,
    /** Anyone may GET and write without a key. */
    allowAnonymousReadWrite: flag,
  }),
  ownership: object({
    /** The key that grants reads and writes; null = none configured. */
    api_key: z.string({ message: KEY }).min(1, { message: KEY }).nullable(),
    /**
     * With no key and no anonymous writes, a server on a loopback address makes a key of its own and
     * keeps it in the user's data folder (src/bins/auth/generated-key.ts); false keeps it read-only.
     */
    generateKey: flag,
  }),
  blacklist: object({
    /** Saves whose content contains any of these strings are refused. */
    html: z.array(text, { message: 'a list of strings' }),
  }),
  /** Largest accepted request body, in bytes (given as "1MB" or a number of bytes). */
  'max-request-size': sizeSchema,
  cors: object({
    /** Access-Control-Allow-Origin for the API's public part: anonymous reads and saves of bins. */
    origin: text,
    /**
     * Pages besides the server's own and loopback ones that may use the API as its owner: with the
     * key, the list of every bin, deletes, templates (the Origins gate, docs/security.md).
     */
    ownerOrigins: originListSchema,
  }),
  output: object({
    /** Who may frame output pages: a CSP frame-ancestors source list ("'self'", "'none'", "*", origins). */
    frameAncestors: text.refine(isSourceList, { message: SOURCE_LIST }),
  }),
  cache: object({
    /** Memory for recently read revisions, in MB (0 = none: every read goes to SQLite). */
    revisionsMB: wholeNumber,
    /** How many bins' head records (their latest revision number) stay in memory. */
    heads: wholeNumber,
    /** Memory for rendered output pages, in MB (0 = none: every read renders). */
    pagesMB: wholeNumber,
  }),
});

export type BinConfig = z.output<typeof binConfigSchema>;

/** How the API can be used under `config`, as the start-up line says it. */
export function apiMode(config: BinConfig): 'open' | 'keyed' | 'read-only' | 'closed' {
  if (config.api.allowAnonymousReadWrite) return 'open';
  if (config.ownership.api_key) return 'keyed';
  return config.api.allowAnonymousRead ? 'read-only' : 'closed';
}

function isSourceList(value: string): boolean {
  try {
    framing(value);
    return true;
  } catch {
    return false;
  }
}

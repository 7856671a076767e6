/** The bin server's settings, under JS Bin's own key names (config.default.json holds the defaults). */
export type BinConfig = {
  api: {
    /** Anyone may GET without a key. */
    allowAnonymousRead: boolean;
    /** Anyone may GET and write without a key. */
    allowAnonymousReadWrite: boolean;
  };
  ownership: {
    /** The key that grants reads and writes; null = none configured. */
    api_key: string | null;
  };
  blacklist: {
    /** Saves whose content contains any of these strings are refused. */
    html: string[];
  };
  /** Largest accepted request body, e.g. "1MB" or a number of bytes. */
  'max-request-size': string | number;
  cors: {
    /** Access-Control-Allow-Origin for the API. */
    origin: string;
  };
  output: {
    /** Who may frame output pages: a CSP frame-ancestors source list ("'self'", "'none'", "*", origins). */
    frameAncestors: string;
  };
  cache: {
    /** Memory for recently read revisions, in MB (0 = none: every read goes to SQLite). */
    revisionsMB: number;
    /** How many bins' head records (their latest revision number) stay in memory. */
    heads: number;
  };
};

/** How the API can be used under `config`, as the start-up line says it. */
export function apiMode(config: BinConfig): 'open' | 'keyed' | 'read-only' | 'closed' {
  if (config.api.allowAnonymousReadWrite) return 'open';
  if (config.ownership.api_key) return 'keyed';
  return config.api.allowAnonymousRead ? 'read-only' : 'closed';
}

import { z } from 'zod/v3';

/**
 * A shared store named by URL: PostgreSQL with an optional pool size (`?pool=4`: connections per
 * instance), or Redis with an optional key prefix (`?prefix=team1:`). Both parameters are ours, taken
 * out of the URL the client connects with.
 */
export type StoreUrl = { kind: 'postgres'; url: string; pool?: number } | { kind: 'redis'; url: string; prefix?: string };

/** The most pooled connections one instance may ask for (PostgreSQL's own default max_connections is 100). */
export const MAX_POOL = 1000;
const POOL = `a PostgreSQL URL whose pool= is a whole number of connections from 1 to ${MAX_POOL}`;

const SCHEMES: Record<string, StoreUrl['kind']> = {
  'postgres:': 'postgres',
  'postgresql:': 'postgres',
  'redis:': 'redis',
  'rediss:': 'redis',
};

const STORE = 'a postgres://, postgresql://, redis:// or rediss:// URL';

/** The store a URL names, or what is wrong with it. */
function readStoreUrl(text: string): StoreUrl | { problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: STORE };
  }
  const kind = SCHEMES[url.protocol];
  if (!kind) return { problem: STORE };
  if (kind === 'redis') {
    const prefix = url.searchParams.get('prefix') ?? undefined;
    url.searchParams.delete('prefix');
    return { kind, url: url.href, ...(prefix === undefined ? {} : { prefix }) };
  }
  const pool = url.searchParams.get('pool');
  if (pool === null) return { kind, url: text };
  if (!/^\d+$/.test(pool) || Number(pool) < 1 || Number(pool) > MAX_POOL) return { problem: POOL };
  url.searchParams.delete('pool');
  return { kind, url: url.href, pool: Number(pool) };
}

/** The store a URL names; undefined when it names none we run on, or a parameter of ours is wrong. */
export function parseStoreUrl(text: string): StoreUrl | undefined {
  const read = readStoreUrl(text);
  return 'problem' in read ? undefined : read;
}

export const storeUrlSchema = z.string({ message: STORE }).superRefine((text, ctx) => {
  const read = readStoreUrl(text);
  if ('problem' in read) ctx.addIssue({ code: 'custom', message: read.problem });
});

/** The URL as the banner and messages show it: without its password (in the user part or a parameter). */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '';
    parsed.searchParams.delete('password');
    return parsed.href;
  } catch {
    return url.replace(/password=[^&\s]*/gi, 'password=…');
  }
}

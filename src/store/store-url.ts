import { z } from 'zod';

/** A shared store named by URL: PostgreSQL, or Redis with an optional key prefix (`?prefix=team1:`). */
export type StoreUrl = { kind: 'postgres'; url: string } | { kind: 'redis'; url: string; prefix?: string };

const SCHEMES: Record<string, StoreUrl['kind']> = {
  'postgres:': 'postgres',
  'postgresql:': 'postgres',
  'redis:': 'redis',
  'rediss:': 'redis',
};

/** The store a URL names; undefined when it names none we run on. */
export function parseStoreUrl(text: string): StoreUrl | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const kind = SCHEMES[url.protocol];
  if (kind !== 'redis') return kind && { kind, url: text };
  // The prefix is ours, not the client's: taken out of the URL it connects with.
  const prefix = url.searchParams.get('prefix') ?? undefined;
  url.searchParams.delete('prefix');
  return { kind, url: url.href, ...(prefix === undefined ? {} : { prefix }) };
}

const STORE = 'a postgres://, postgresql://, redis:// or rediss:// URL';
export const storeUrlSchema = z.string({ error: STORE }).refine((text) => parseStoreUrl(text) !== undefined, { error: STORE });

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

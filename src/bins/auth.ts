import { timingSafeEqual, createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { HttpError } from '../http/errors.js';
import type { BinConfig } from './config.js';

export const INVALID_KEY = 'The API key you provided is not valid';
export const KEY_NEEDED = 'You need to provide a valid API key when using this API';

/** The key a request carries: `?api_key=` first, else `Authorization: token KEY` (JS Bin's order). */
export function requestKey(ctx: Context): string | undefined {
  const query = ctx.query.api_key;
  if (query !== undefined) return Array.isArray(query) ? query[0] : query;
  const header = ctx.get('Authorization');
  if (!header) return undefined;
  return header.replace(/^token\s+/i, '');
}

/** Compares in constant time; hashing first makes the lengths equal, so length leaks nothing either. */
function sameKey(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export type Access = 'read' | 'write' | 'admin';

/**
 * JS Bin's API authentication, run for every /api request: a wrong key is refused for every method;
 * without a key, reads need allowAnonymousRead and writes allowAnonymousReadWrite. `admin`
 * (listing and deleting) needs the key whenever one is configured. Every refusal is a 403.
 */
export function checkAccess(ctx: Context, config: BinConfig, access: Access): void {
  const key = requestKey(ctx);
  const configured = config.ownership.api_key;
  if (key !== undefined) {
    if (!configured || !sameKey(key, configured)) throw new HttpError(403, INVALID_KEY);
    return;
  }
  const { allowAnonymousRead, allowAnonymousReadWrite } = config.api;
  const allowed =
    access === 'read'
      ? allowAnonymousRead || allowAnonymousReadWrite
      : access === 'write'
        ? allowAnonymousReadWrite
        : allowAnonymousReadWrite && !configured;
  if (!allowed) throw new HttpError(403, KEY_NEEDED);
}

/** Middleware form of checkAccess for one route. */
export function requireAccess(config: BinConfig, access: Access): Middleware {
  return async (ctx, next) => {
    checkAccess(ctx, config, access);
    await next();
  };
}

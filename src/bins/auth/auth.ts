import { createHmac, timingSafeEqual, createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { HttpError } from '../../http/errors.js';
import { judgePage, originPolicy } from '../../http/origins.js';
import { SESSION_COOKIE_PREFIX } from '../../http/session-cookie.js';
import type { BinConfig } from '../config/config.js';

export const INVALID_KEY = 'The API key you provided is not valid';
export const KEY_NEEDED = 'You need to provide a valid API key when using this API';
/** Admin requests where no key could be given: says which setting changes that. */
export const READ_ONLY =
  'This server is read-only: listing and deleting bins through the API need a key, so set ownership.api_key ' +
  '(or api.allowAnonymousReadWrite to let anyone)';

/** The query parameter of a bin's read capability (see readToken). */
export const TOKEN_PARAM = 'token';

/** The key a request carries: `?api_key=` first, else `Authorization: token KEY` (JS Bin's order). */
export function requestKey(ctx: Context): string | undefined {
  const query = ctx.query.api_key;
  if (query !== undefined) return Array.isArray(query) ? query[0] : query;
  const header = ctx.get('Authorization');
  if (!header) return undefined;
  return header.replace(/^token\s+/i, '');
}

/** Compares in constant time; hashing first makes the lengths equal, so length leaks nothing either. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** sameSecret against one `expected`, hashed once: for a check run on every request (owner-request.ts). */
export function secretMatcher(expected: string): (given: string) => boolean {
  const wanted = digest(expected);
  return (given) => timingSafeEqual(digest(given), wanted);
}

/** True when `key` is the configured key (false when none is configured). */
export function isTheKey(config: BinConfig, key: string): boolean {
  const configured = config.ownership.api_key;
  return Boolean(configured) && sameSecret(key, configured!);
}

/** Values derived from the key, so neither a cookie nor a page ever holds the key itself. */
function derived(config: BinConfig, purpose: string): string | undefined {
  const key = config.ownership.api_key;
  return key ? createHmac('sha256', key).update(purpose).digest('base64url') : undefined;
}

/** Anyone may read bins (both anonymous-read settings are JS Bin's). */
export function anonymousReads(config: BinConfig): boolean {
  return config.api.allowAnonymousRead || config.api.allowAnonymousReadWrite;
}

/**
 * The browser session cookie: named after the key (two servers on one host, whose cookies share a
 * jar whatever their ports, keep theirs apart) and holding an HMAC of it.
 */
export function sessionCookie(config: BinConfig): { name: string; value: string } | undefined {
  const name = derived(config, 'cookie-name');
  const value = derived(config, 'session');
  return name && value ? { name: `${SESSION_COOKIE_PREFIX}${name.slice(0, 10)}`, value } : undefined;
}

/**
 * A capability to read one bin, for its output page when reads need the key: a sandboxed page has an
 * opaque origin, so its event stream, console posts and reloads carry no SameSite=Strict cookie.
 * Only pages that already needed the key, or this token, are given it.
 */
export function readToken(config: BinConfig, bin: string): string | undefined {
  return anonymousReads(config) ? undefined : derived(config, `read:${bin}`);
}

export type Access = 'read' | 'write' | 'admin';

/**
 * JS Bin's API authentication: a wrong key is refused for every method; without a key, reads need
 * allowAnonymousRead and writes allowAnonymousReadWrite, or the session cookie on a request from our
 * own page. `admin` (listing and deleting) needs the key, or that cookie, whenever one is configured,
 * and is refused naming the settings where none is. Every refusal is a 403. Reads of bins go through checkRead.
 */
export function checkAccess(ctx: Context, config: BinConfig, access: Access): void {
  const key = requestKey(ctx);
  if (key !== undefined) {
    if (!isTheKey(config, key)) throw new HttpError(403, INVALID_KEY);
    return;
  }
  if (access !== 'read' && hasSession(ctx, config) && fromOwnPage(ctx)) return;
  const { allowAnonymousReadWrite } = config.api;
  const allowed =
    access === 'read'
      ? anonymousReads(config)
      : access === 'write'
        ? allowAnonymousReadWrite
        : allowAnonymousReadWrite && !config.ownership.api_key;
  if (!allowed) throw new HttpError(403, access === 'admin' && !config.ownership.api_key ? READ_ONLY : KEY_NEEDED);
}

/**
 * The one read guard, for every way to read a bin (pages, panels, streams, the API, the console relay,
 * the compiler): what checkAccess allows, and, when reads need the key, the browser session cookie
 * or the capability for `bin`. A wrong key is refused even where anonymous reads are allowed.
 */
export function checkRead(ctx: Context, config: BinConfig, bin?: string): void {
  if (anonymousReads(config)) return checkAccess(ctx, config, 'read');
  // Private answers: no shared cache may keep them for the next visitor.
  ctx.set('Cache-Control', 'private, no-store');
  if (requestKey(ctx) !== undefined) return checkAccess(ctx, config, 'read');
  if (hasSession(ctx, config)) return;
  const token = bin === undefined ? undefined : readToken(config, bin);
  const given = ctx.query[TOKEN_PARAM];
  if (token && typeof given === 'string' && sameSecret(given, token)) return;
  throw new HttpError(403, KEY_NEEDED);
}

/** Our own origin only: not loopback pages on other ports, which share the cookie (a site is not a port). */
const OWN_PAGES = originPolicy([], { loopback: false });

/**
 * True for a request from one of this server's own pages (its `Origin` is ours). With the session
 * cookie, such a write counts as given the key: a browser logged in once (`?api_key=`, or the editor's
 * key dialog) saves without the key in the page. No other page can send our Origin, sandboxed output
 * pages send `null`, and a request without `Origin` (not a page's) needs the key itself.
 */
function fromOwnPage(ctx: Context): boolean {
  return judgePage(OWN_PAGES, ctx).page === 'allowed';
}

/** True when the request carries the browser session cookie of the configured key. */
function hasSession(ctx: Context, config: BinConfig): boolean {
  const session = sessionCookie(config);
  const cookie = session && ctx.cookies.get(session.name);
  return cookie !== undefined && sameSecret(cookie, session!.value);
}

/**
 * True when the request itself shows the owner's key, the session cookie or `bin`'s read capability:
 * what a reader of a bin must show for its page to carry a private mocks token (server/mock-token.ts),
 * even where anyone may read bins.
 */
export function privateReader(ctx: Context, config: BinConfig, bin: string): boolean {
  const key = requestKey(ctx);
  if (key !== undefined) return isTheKey(config, key);
  if (hasSession(ctx, config)) return true;
  const token = readToken(config, bin);
  const given = ctx.query[TOKEN_PARAM];
  return Boolean(token) && typeof given === 'string' && sameSecret(given, token!);
}

/**
 * The guard of pages that show every bin (the list): whenever a key is configured they need it, in
 * the request or as the session cookie, whatever the anonymous-read settings say; without one, open.
 */
export function checkOwner(ctx: Context, config: BinConfig): void {
  if (!config.ownership.api_key) return;
  ctx.set('Cache-Control', 'private, no-store');
  if (requestKey(ctx) !== undefined) return checkAccess(ctx, config, 'admin');
  if (!hasSession(ctx, config)) throw new HttpError(403, KEY_NEEDED);
}

/** Middleware form of checkAccess for one route. */
export function requireAccess(config: BinConfig, access: Access): Middleware {
  return async (ctx, next) => {
    checkAccess(ctx, config, access);
    await next();
  };
}

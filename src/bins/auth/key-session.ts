import type { Context, Middleware } from 'koa';
import { HttpError } from '../../http/errors.js';
import { isUnder } from '../../http/under.js';
import { INVALID_KEY, KEY_NEEDED, isTheKey, requestKey, sessionCookie } from './auth.js';
import type { BinConfig } from '../config/config.js';
import { sendJson } from '../../http/json-answer.js';

/** Long enough not to nag; the cookie is only an HMAC of the key, so changing the key ends every session. */
const SESSION_DAYS = 30;

/**
 * How a browser gives the key once, and the rule that a wrong key is never ignored:
 * - any /api request carrying a wrong key is a 403, whatever the route (preflights carry none);
 * - `?api_key=KEY` on a page address sets the session cookie and answers 303 to the same address
 *   without the key, so it leaves the address bar; a wrong one is a 403 page;
 * - `POST /api/session` with the key (Authorization header) sets the cookie for the editor's key dialog.
 * The cookie is HttpOnly and SameSite=Strict, on Path=/: behind a proxy that adds a path prefix the
 * server cannot know that prefix, and its value is derived from the key, never the key.
 */
export function keySession(config: BinConfig): Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'OPTIONS') return next();
    const api = isUnder('/api', ctx.path);
    const key = requestKey(ctx);
    if (key !== undefined && !isTheKey(config, key) && (api || ctx.query.api_key !== undefined)) {
      throw new HttpError(403, INVALID_KEY);
    }
    if (ctx.path === '/api/session') {
      if (ctx.method !== 'POST') throw new HttpError(405, 'use POST');
      if (key === undefined) throw new HttpError(403, KEY_NEEDED);
      setSession(ctx, config);
      sendJson(ctx, { session: true });
      return;
    }
    const page = !api && (ctx.method === 'GET' || ctx.method === 'HEAD');
    if (!page || ctx.query.api_key === undefined || ctx.get('Accept').includes('text/event-stream')) return next();
    setSession(ctx, config);
    // Only the key goes; the rest stays as written (URLSearchParams would turn a panel list like
    // `html,js` into `html%2Cjs=`, which no longer names panels).
    const rest = ctx.querystring
      .split('&')
      .filter((part) => part !== '' && paramName(part) !== 'api_key')
      .join('&');
    // Relative, so it also lands right behind a prefix proxy; "./" so a segment like "a:b" is no scheme.
    ctx.status = 303;
    ctx.redirect(`./${ctx.path.slice(ctx.path.lastIndexOf('/') + 1)}${rest ? `?${rest}` : ''}`);
  };
}

/** A query parameter's name as Koa reads it (`api%5Fkey=…` is the key too). */
export function paramName(part: string): string {
  const name = part.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

function setSession(ctx: Context, config: BinConfig): void {
  const session = sessionCookie(config)!;
  ctx.cookies.set(session.name, session.value, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    maxAge: SESSION_DAYS * 24 * 60 * 60 * 1000,
    overwrite: true,
  });
}

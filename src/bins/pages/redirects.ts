import type { Middleware } from 'koa';
import { ID_CHARS, REV_CHARS } from '../addresses/ids.js';

/** `/abc/js`, `/abc/2/css`: JS Bin's older panel addresses. */
const PANEL_WORD = new RegExp(`^/(?:${ID_CHARS})(?:/(?:${REV_CHARS}))?/(js|css)$`);
/** Any page address with a trailing slash (`/abc/`, `/abc/2/edit/`); not the root. */
const TRAILING = /^(?:\/[^/]+)+\/$/;

/**
 * The redirects JS Bin answered (301): `/abc/js` to `/abc.js` (and css), and a trailing slash to the
 * address without it, the query kept. Locations are relative, so a server behind a path prefix still
 * sends the browser to its own pages.
 */
export function jsBinRedirects(): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const search = ctx.search;
    const segments = ctx.path.split('/');
    const panel = PANEL_WORD.exec(ctx.path);
    if (panel) {
      // From /abc/2/js, "../2.js" is /abc/2.js; from /abc/js, "../abc.js" is /abc.js.
      ctx.status = 301;
      return ctx.redirect(`../${segments.at(-2)}.${panel[1]}${search}`);
    }
    if (TRAILING.test(ctx.path)) {
      ctx.status = 301;
      return ctx.redirect(`../${segments.at(-2)}${search}`);
    }
    return next();
  };
}

import type { Context } from 'koa';
import { ID_CHARS, REV_CHARS } from './ids.js';

/** The addresses of a bin's output (docs/bin-api.md § Pages), in @koa/router's path syntax. */
export const OUTPUT_PATHS = ['/:bin', '/:bin/quiet', '/:bin/:rev', '/:bin/:rev/quiet'];
/** The addresses of a bin's editor and its read-only watch page. */
export const EDITOR_PATHS = ['/:bin/edit', '/:bin/watch', '/:bin/:rev/edit', '/:bin/:rev/watch'];

/** A bin page's address as given: the id, and the revision when the address names one. */
export type PageAddress = { bin: string; rev: string | undefined };

const ID = new RegExp(`^(?:${ID_CHARS})$`);
const REV = new RegExp(`^(?:${REV_CHARS})$`);

/**
 * The parameters of the route now running, as the address spells them (not decoded: an id never
 * holds a %). Not ctx.params, which @koa/router merges across every route a path matched, so
 * `/abc/quiet` would keep `rev: "quiet"` from `/:bin/:rev` after that route passed it on.
 */
export function routeParams(ctx: Context): Record<string, string | undefined> {
  const { routerPath = '', captures = [] } = ctx as Context & { routerPath?: string; captures?: string[] };
  const names = [...routerPath.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  return Object.fromEntries(names.map((name, i) => [name, captures[i]]));
}

/**
 * The bin and revision of a matched page route, or undefined when they cannot be one (`/abc/quiet`
 * also matches `/:bin/:rev`): the route then passes the request on to the next one that matches.
 */
export function pageAddress(ctx: Context): PageAddress | undefined {
  const { bin, rev } = routeParams(ctx);
  if (bin === undefined || !ID.test(bin) || (rev !== undefined && !REV.test(rev))) return undefined;
  return { bin, rev };
}

/** Router options for pages: `/abc/EDIT` and `/abc/` are not `/abc/edit` and `/abc`, as before the router. */
export const PAGE_ROUTER = { sensitive: true, strict: true } as const;

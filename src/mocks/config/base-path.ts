/**
 * `serve-mocks --base-path` (docs/mock-api.md, "The document's own paths"): endpoints answered at
 * `<base path>/<their path>` as well as under /endpoint/, so a client of Prism (which serves the
 * operations at their own paths) moves by changing only the port. The server's own routes come
 * first and a base path may not lie under them.
 */

/** First path segments the mock server answers itself: its management API, its page, its endpoints. */
export const OWN_SEGMENTS = ['api', 'static', 'endpoint'] as const;

const SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@%-]+$/;

/** `path` as a base path (`/` or `/v1/store`, no trailing slash), or what is wrong with it. */
export function checkBasePath(path: string): { path: string } | { problem: string } {
  if (!path.startsWith('/')) return { problem: `'${path}' is not a path: give one starting with /, such as / or /v1` };
  const segments = path.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => !SEGMENT.test(segment) || segment === '.' || segment === '..')) {
    return { problem: `'${path}' is not a plain path: no query, fragment, '.' or '..' segments` };
  }
  const first = segments[0]?.toLowerCase();
  if (first !== undefined && (OWN_SEGMENTS as readonly string[]).includes(first)) {
    return { problem: `'${path}' is under /${first}, which the mock server keeps for itself (/api: its API, /static: its page, /endpoint: its endpoints); choose another` };
  }
  return { path: `/${segments.join('/')}` };
}

/**
 * The endpoint path (as after /endpoint/, undecoded, no query) a request URL names under `base`, or
 * undefined when it is not under it or is one of the server's own routes (`/`, /api, /static, /endpoint).
 */
export function underBasePath(base: string, url: string): string | undefined {
  const query = url.indexOf('?');
  const pathname = query === -1 ? url : url.slice(0, query);
  if (pathname === '/' || !pathname.startsWith('/')) return undefined;
  const first = pathname.slice(1, (pathname.indexOf('/', 1) + 1 || pathname.length + 1) - 1).toLowerCase();
  if ((OWN_SEGMENTS as readonly string[]).includes(first)) return undefined;
  if (base === '/') return pathname.slice(1);
  if (pathname === base) return '';
  return pathname.startsWith(`${base}/`) ? pathname.slice(base.length + 1) : undefined;
}

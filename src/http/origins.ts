import type { Context, Middleware } from 'koa';
import { preflightHeaders, type CorsPolicy } from './cors.js';
import { HttpError } from './errors.js';
import { normalizeOrigin } from '../server/setting-schemas.js';

/**
 * The Origins gate (docs/security.md): the one policy that says which web pages may use a
 * server's management API. By default the server's own pages and pages on loopback origins; more
 * origins when the user names them. A page not allowed gets no CORS headers, so it cannot read an
 * answer, and its writes are refused with a 403 before anything is read or done: a `text/plain` or
 * form POST needs no preflight, so CORS headers alone would not stop it. Requests without `Origin`
 * (curl, the CLI, our own same-origin GETs) are not a page's and pass.
 */

/** Who may use a management API. */
export type OriginPolicy = {
  /** Every page (`--cors-origin '*'`): the old open API. */
  any: boolean;
  /** Pages on http(s)://localhost, 127.0.0.1 or [::1], any port. */
  loopback: boolean;
  /** More pages, as normalized origins (`https://app.example`, `http://10.0.0.5:8080`). */
  origins: ReadonlySet<string>;
};

/** How a request stands: no page named (no `Origin`), a page allowed, or one refused. */
export type PageVerdict = { page: 'none' } | { page: 'allowed' | 'refused'; origin: string };


/**
 * The policy for `named` origins (each checked with originListSchema first); `*` among them opens the
 * API to every page. `loopback: false` leaves only the server's own pages (`--no-cors`).
 */
export function originPolicy(named: readonly string[] = [], { loopback = true } = {}): OriginPolicy {
  const origins = new Set<string>();
  let any = false;
  for (const text of named) {
    if (text.trim() === '*') any = true;
    else origins.add(normalizeOrigin(text) ?? text);
  }
  return { any, loopback, origins };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for a page on this machine: http(s)://localhost, 127.0.0.1 or [::1], any port. */
export function isLoopbackOrigin(origin: string): boolean {
  const url = parse(origin);
  return url !== undefined && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * The verdict on `ctx`'s page under `policy`. The server's own origin is `protocol://host` as Koa
 * sees them (with `proxy`, from X-Forwarded-Proto/-Host); an https page on our host also counts when
 * we hear plain http, as behind a TLS-terminating proxy. `Origin: null` (sandboxed frames, file:
 * pages, forms sent with no referrer) is a page we cannot name, so it is refused unless `*` lets every page in.
 */
export function judgePage(policy: OriginPolicy, ctx: Context): PageVerdict {
  const origin = ctx.get('Origin');
  if (!origin) return { page: 'none' };
  return { page: allows(policy, origin, ctx.protocol, ctx.host) ? 'allowed' : 'refused', origin };
}

/** Whether `policy` lets in a page of `origin` on a server reached as `protocol://host` (judgePage's rule, for raw requests). */
export function allows(policy: OriginPolicy, origin: string, protocol: string, host: string): boolean {
  if (policy.any) return true;
  const given = origin.toLowerCase();
  const own = `${protocol}://${host.toLowerCase()}`;
  // The common cases first, as plain comparisons: our own page, `null`, a named origin.
  if (given === own || (protocol === 'http' && given === `https://${host.toLowerCase()}`)) return true;
  if (given === 'null') return false;
  if (policy.origins.has(given)) return true;
  const url = parse(given);
  // Anything that is not an exact http(s) origin (a path, a user) is no page we can name.
  if (!url || url.origin !== given) return false;
  if (policy.loopback && LOOPBACK_HOSTS.has(url.hostname)) return true;
  // Our own origin written another way (a default port in Host: `localhost:80`).
  const ours = parse(own);
  return ours !== undefined && (ours.origin === url.origin || (protocol === 'http' && `https://${ours.host}` === url.origin));
}

function parse(origin: string): URL | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Methods that only read: every other one writes, whatever its Content-Type. */
export function isWrite(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
}

export type GateOptions = {
  policy: OriginPolicy;
  /** What a preflight from an allowed page is told; its `origin` is replaced by the page's. */
  cors: Omit<CorsPolicy, 'origin'>;
  /** false (`--no-cors`): decide, refuse, but send no CORS headers to anyone. */
  headers?: boolean;
  /** The sentence after the refusal saying how to allow `origin`. */
  hint: (origin: string) => string;
};

/**
 * The gate as Koa middleware for a management API: refuses a refused page's writes (403), answers
 * preflights (204; with CORS headers for allowed pages only), and sets `Access-Control-Allow-Origin`
 * to the allowed page's origin (`*` under `*`) with `Vary: Origin`.
 */
export function originGate(options: GateOptions): Middleware {
  const { policy, cors, hint, headers = true } = options;
  return async (ctx, next) => {
    const verdict = judgePage(policy, ctx);
    if (verdict.page === 'refused' && isWrite(ctx.method)) throw refusal(verdict.origin, hint);
    // --no-cors: OPTIONS is the router's, as for any other path.
    if (!headers) return next();
    if (!policy.any) ctx.vary('Origin');
    const allowed = (verdict.page === 'allowed' || (policy.any && verdict.page === 'none'));
    const origin = policy.any ? '*' : verdict.page === 'none' ? '' : verdict.origin;
    if (ctx.method === 'OPTIONS') {
      if (allowed) setPairs(ctx, preflightHeaders({ ...cors, origin }, ctx.req));
      ctx.status = 204;
      return;
    }
    if (allowed) ctx.set('Access-Control-Allow-Origin', origin);
    await next();
  };
}

/** The 403 a refused page's write gets, before anything is read or done. */
export function refusal(origin: string, hint: (origin: string) => string): HttpError {
  const page = origin === 'null' ? 'pages with an opaque origin (null: sandboxed frames, files)' : `pages on ${origin}`;
  return new HttpError(403, `${page} may not use this API; ${hint(origin)}`);
}

function setPairs(ctx: Context, pairs: [string, string][]): void {
  for (const [name, value] of pairs) {
    if (name === 'Vary') ctx.vary(value);
    else ctx.set(name, value);
  }
}

import type { IncomingMessage } from 'node:http';

/**
 * The bin server's browser session cookies are named `snippetkit_<hash>` (bins/auth/auth.ts). A browser
 * sends every cookie of a host to all its ports, so the mock server beside a bin server on one host gets
 * them too, and it keeps request headers in its logs (open to anyone who may use its API) and forwards
 * them with --proxy: it takes them out of each request first (mocks/app.ts), alone or on `snippetkit serve`.
 */
export const SESSION_COOKIE_PREFIX = 'snippetkit_';

/** `req` with the bins' session cookies taken out of its Cookie header (and rawHeaders), other cookies kept. */
export function withoutSessionCookies(req: IncomingMessage): void {
  const cookie = req.headers.cookie;
  if (cookie === undefined || !cookie.includes(SESSION_COOKIE_PREFIX)) return;
  const kept = cookie
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '' && !pair.startsWith(SESSION_COOKIE_PREFIX))
    .join('; ');
  if (kept === '') delete req.headers.cookie;
  else req.headers.cookie = kept;
  const raw: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() !== 'cookie') raw.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
  if (kept !== '') raw.push('Cookie', kept);
  req.rawHeaders = raw;
}

import type { Handler } from './listen.js';
import { isLoopback } from './loopback.js';

/** `--allowed-host all`: no Host check at all. */
export const ANY_HOST = 'all';

/**
 * Whether a server listening on `listenHost` checks Host headers: always on loopback (a page on
 * another site can reach it through DNS rebinding, as dev servers such as vite and webpack guard
 * against), elsewhere only when hosts were named; never with `--allowed-host all`.
 */
export function checksHost(listenHost: string, allowed: readonly string[]): boolean {
  if (allowed.some((name) => name.toLowerCase() === ANY_HOST)) return false;
  return isLoopback(listenHost) || allowed.length > 0;
}

/**
 * `handler` behind a Host check, ahead of every fast path: a request named for a host that is not
 * loopback (localhost, *.localhost, 127.0.0.0/8, [::1]) nor in `allowed` gets a 403 with
 * `refusal(message)` as its JSON body. A request with no Host (HTTP/1.0) passes: a browser always sends one.
 */
export function guardHost(
  handler: Handler,
  allowed: readonly string[],
  refusal: (message: string) => object,
): Handler {
  const names = new Set(allowed.map(hostName));
  // The Host last let through: a client sends the same one on every request, so it is one comparison.
  let passed: string | undefined;
  return (req, res) => {
    const host = req.headers.host;
    if (host === undefined || host === passed) return handler(req, res);
    if (isAllowed(hostName(host), names)) {
      passed = host;
      return handler(req, res);
    }
    const name = hostName(host) || host;
    // The connection closes after the answer, so a body the request may carry is never read.
    const message =
      `requests for host ${JSON.stringify(host)} are refused (a guard against DNS rebinding); ` +
      `start the server with --allowed-host ${name} to accept them`;
    const body = JSON.stringify(refusal(message));
    res.writeHead(403, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    });
    res.end(body);
  };
}

/** The name in a Host header, lower case, without its port: "[::1]:80" -> "[::1]", "a.test:3" -> "a.test". */
function hostName(host: string): string {
  const name = host.trim().toLowerCase();
  if (name.startsWith('[')) return name.slice(0, name.indexOf(']') + 1);
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(0, colon);
}

function isAllowed(name: string, allowed: Set<string>): boolean {
  return isLoopback(name) || name.endsWith('.localhost') || allowed.has(name);
}


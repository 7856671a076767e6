import type { IncomingMessage } from 'node:http';
import { parse } from 'node:querystring';
import type { BinConfig } from '../config/config.js';
import { secretMatcher, sessionCookie } from './auth.js';
import { paramName } from './key-session.js';

/**
 * What the bins' owner shows, read off a raw request before any app sees it (the joint server's gate of
 * private mocks, server/mock-gate.ts): `?api_key=KEY`, `Authorization: token KEY`, or the bins' session
 * cookie, as auth.ts reads them in the bin server. Only the right key counts; any other Authorization or
 * `api_key` is left alone (it may be the mocked API's own) and shows nothing. The key found is taken
 * out of the request, so a mock's request log, templates and --proxy upstream never see it; the cookie
 * is the mock server's to take out (http/session-cookie.ts).
 */
export function ownerCheck(config: BinConfig): (req: IncomingMessage) => boolean {
  const session = sessionCookie(config);
  const configured = config.ownership.api_key;
  // Hashed once here, not on every request (the gate runs on each endpoint call).
  const isKey = configured ? secretMatcher(configured) : () => false;
  const isSession = session ? secretMatcher(session.value) : () => false;
  return (req) => {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    if (query !== -1) {
      const given = parse(url.slice(query + 1)).api_key;
      const key = Array.isArray(given) ? given[0] : given;
      if (key !== undefined && isKey(key)) {
        req.url = url.slice(0, query) + withoutKey(url.slice(query + 1));
        return true;
      }
    }
    const header = req.headers.authorization;
    if (header !== undefined && isKey(header.replace(/^token\s+/i, ''))) {
      delete req.headers.authorization;
      req.rawHeaders = req.rawHeaders.filter((_, i, all) => all[i - (i % 2)]!.toLowerCase() !== 'authorization');
      return true;
    }
    const cookie = session && req.headers.cookie;
    if (!cookie) return false;
    const prefix = `${session.name}=`;
    const value = cookie
      .split(';')
      .map((pair) => pair.trim())
      .find((pair) => pair.startsWith(prefix));
    return value !== undefined && isSession(value.slice(prefix.length));
  };
}

/** A query string (after `?`) without its `api_key` parameters, the rest as written; `?…` or ''. */
function withoutKey(query: string): string {
  const rest = query.split('&').filter((part) => part !== '' && paramName(part) !== 'api_key');
  return rest.length > 0 ? `?${rest.join('&')}` : '';
}

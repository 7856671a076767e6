import type { ServerResponse } from 'node:http';
import type { Handler } from './listen.js';
import { TOKEN_ROUTE, type PrivateMocks } from './mock-gate.js';

/** Where the mock server's page and management API live on the joint server: its `/…` is `/mocks/…` here. */
export const MOCKS_PREFIX = '/mocks';
/** The mock server's endpoints, at the same path as on the mock server alone. */
export const ENDPOINT_PREFIX = '/endpoint/';
/** What the joint server says it is, for client commands that must find the mock API (docs/serve.md). */
export const WHOAMI_PATH = '/api/whoami';

/** The first path segments the joint server takes from the bin server: bin ids must never be these. */
export const JOINT_WORDS = ['mocks', 'endpoint', 'whoami'] as const;

export type JointAnswer = {
  server: 'snippetkit serve';
  version: string;
  /** Paths on this origin, each ending in `/`. */
  bins: string;
  mocks: string;
  endpoints: string;
  /** With --private-mocks: where the editor asks for its preview's token (mock-gate.ts tokenRoute). */
  mockTokens?: string;
};

/**
 * One handler for both apps (`snippetkit serve`): `/endpoint/…` straight to the mock handler (its
 * pre-Koa fast path sees the URL it always saw), `/mocks/…` to the mock handler with the prefix taken
 * off (its page and API use relative URLs), `GET /api/whoami` answered here, everything else to the
 * bin handler unchanged. One string check per request before either app's own fast paths. With
 * `privateMocks` (--private-mocks, mock-gate.ts), every request for the mock server passes its gate first.
 */
export function jointHandler({
  bins,
  mocks,
  version,
  privateMocks,
}: {
  bins: Handler;
  mocks: Handler;
  version: string;
  privateMocks?: PrivateMocks;
}): Handler {
  const gate = privateMocks?.gate;
  const whoami: JointAnswer = {
    server: 'snippetkit serve',
    version,
    bins: '/',
    mocks: `${MOCKS_PREFIX}/`,
    endpoints: ENDPOINT_PREFIX,
    ...(privateMocks && { mockTokens: `${MOCKS_PREFIX}${TOKEN_ROUTE}` }),
  };
  const whoamiBody = JSON.stringify(whoami);
  return (req, res) => {
    const url = req.url ?? '/';
    // Endpoint answers carry the mock server's own sandbox CSP, so on the bins' origin too an HTML
    // answer runs at an opaque origin, away from the editor's session cookie.
    if (url.startsWith(ENDPOINT_PREFIX)) {
      if (gate && !gate(req, res, 'endpoint')) return;
      return mocks(req, res);
    }
    if (url.startsWith(MOCKS_PREFIX)) {
      const rest = url.slice(MOCKS_PREFIX.length);
      // `/mocks` and `/mocks?…`: the page, whose relative URLs need the slash; `/mocksfoo` is the bins'.
      if (rest === '' || rest.startsWith('?')) return redirect(res, `${MOCKS_PREFIX}/static/`);
      if (rest.startsWith('/')) {
        // `/mocks/endpoint/…` reaches endpoints too, but as the mock server's own path: the key, never a token.
        if (gate && !gate(req, res, 'mocks')) return;
        if (privateMocks && (rest === TOKEN_ROUTE || rest.startsWith(`${TOKEN_ROUTE}?`))) return privateMocks.tokenRoute(req, res);
        req.url = rest;
        return mocks(req, res);
      }
    }
    if ((url === WHOAMI_PATH || url.startsWith(`${WHOAMI_PATH}?`)) && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(whoamiBody),
        'Cache-Control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : whoamiBody);
      return;
    }
    return bins(req, res);
  };
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { Location: location, 'Content-Length': 0 });
  res.end();
}

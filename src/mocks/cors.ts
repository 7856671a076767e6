import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * CORS for the mock endpoints (not the API: keeping the API same-origin means a web page the
 * user visits cannot change their mocks). Any origin may read; no credentials, so `*` is allowed.
 */
export const ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/** True for a CORS preflight: an OPTIONS naming the method the browser wants to send. */
export function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}

/** Answers a preflight with 204: every method, the headers the browser asked for. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  const head: string[] = [
    'Access-Control-Allow-Origin', '*',
    'Access-Control-Allow-Methods', ALLOW_METHODS,
    'Access-Control-Max-Age', '600',
    'Vary', 'Access-Control-Request-Headers',
  ];
  const asked = req.headers['access-control-request-headers'];
  if (asked) head.push('Access-Control-Allow-Headers', asked);
  // Chrome's Private Network Access: a public page calling a mock on localhost asks first.
  if (req.headers['access-control-request-private-network'] === 'true') {
    head.push('Access-Control-Allow-Private-Network', 'true');
  }
  res.writeHead(204, head);
  res.end();
}

/** Headers added to every endpoint response; custom headers are exposed so scripts can read them. */
export function corsHeaders(customHeaderNames: string[]): string[] {
  const head = ['Access-Control-Allow-Origin', '*'];
  if (customHeaderNames.length > 0) head.push('Access-Control-Expose-Headers', customHeaderNames.join(', '));
  return head;
}

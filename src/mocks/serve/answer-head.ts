import { corsHeaders, type CorsPolicy } from '../../http/cors.js';

/**
 * CORS for the mock endpoints (not the API: keeping the API same-origin means a web page the user
 * visits cannot change their mocks). Any origin may read and send anything.
 */
export const ENDPOINT_CORS: CorsPolicy = {
  origin: '*',
  methods: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  privateNetwork: true,
};

/**
 * Every answer under /endpoint/ runs, when a browser shows it as a page, in a sandbox without the
 * server's origin. An endpoint (imported, recorded, or written by anyone who may write) could otherwise
 * serve HTML whose script runs as the mock page itself, which the origin gate trusts with the management
 * API. Sent beside any policy of the endpoint's own (browsers enforce each one), so no record lifts it.
 */
export const ENDPOINT_SANDBOX = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';

/**
 * Which endpoint, and which of its responses, answered: `users #1`, or `users` for the endpoint's own
 * answer. The editor's console shows it after a call (`→ users #1`), and so can any client; exposed to
 * scripts of every origin with the endpoint's other headers. An endpoint's own header of that name wins.
 */
export const ANSWER_HEADER = 'X-Snippetkit-Answer';

// Statuses that never carry content (RFC 9110 15.3.5, 15.3.6, 15.4.5; docs/mock-api.md): the data is not sent.
export const NO_BODY = new Set([204, 205, 304]);

/**
 * The head of an endpoint's answer as node's flat [name, value, ...] list: content type and
 * length, which answered (`answeredBy`, when an endpoint did), CORS, then the endpoint's own headers,
 * which win over ours by name; the sandbox always.
 */
export function buildHead(
  status: number,
  custom: Record<string, string>,
  length: number,
  type: string,
  cors: boolean,
  answeredBy?: string,
): string[] {
  const names = Object.keys(custom);
  const given = new Set(names.map((name) => name.toLowerCase()));
  const head: string[] = [];
  const add = (name: string, value: string) => {
    if (!given.has(name.toLowerCase())) head.push(name, value);
  };
  if (!NO_BODY.has(status)) {
    add('Content-Type', type);
    head.push('Content-Length', String(length));
  } else if (status === 205) {
    // Unlike 204 and 304, HTTP/1.1 framing does not know 205 is empty (RFC 9112 6.3): say so, and the
    // connection stays reusable (RFC 9110 15.3.6 allows Content-Length: 0, forbids it on 204).
    head.push('Content-Length', '0');
  }
  if (answeredBy !== undefined) add(ANSWER_HEADER, answeredBy);
  // Custom headers are exposed so scripts can read them, and which endpoint answered.
  const exposed = answeredBy === undefined ? names : [ANSWER_HEADER, ...names];
  if (cors) for (const [name, value] of corsHeaders(ENDPOINT_CORS, exposed)) add(name, value);
  for (const name of names) head.push(name, custom[name]!);
  head.push('Content-Security-Policy', ENDPOINT_SANDBOX);
  return head;
}

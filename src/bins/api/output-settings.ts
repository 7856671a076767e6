import type { Context } from 'koa';
import { HttpError } from '../../http/errors.js';
import { isJsonObject } from '../../http/json-body.js';
import type { Settings } from '../engines/records.js';

/**
 * A bin's `settings.statusCode` and `settings.headers` (docs/bin-api.md § Status and headers), as JS Bin
 * applied them to a bin's output, within limits: output pages run on the server's origin, so nothing a bin
 * sets may touch cookies, the sandbox policy, framing, caching or what a proxy in front would act on.
 */

const MAX_HEADERS = 20;
/** Bytes of a header's name and value together. */
const MAX_HEADER_BYTES = 1024;

const STATUS_RULE = 'an integer from 200–203, 207–299 or 400–599';

/**
 * Statuses that carry the page as their body and need no header a bin may not set: no 1xx, no 204, 205
 * or 304 (no body), no 206 (needs Content-Range), no other 3xx (a redirect needs Location, refused below).
 */
export function isOutputStatus(code: unknown): code is number {
  if (typeof code !== 'number' || !Number.isInteger(code)) return false;
  return (code >= 200 && code <= 203) || (code >= 207 && code <= 299) || (code >= 400 && code <= 599);
}

/** Standard headers a bin may set: its content's type and language, CORS for fetches from other sites, retry hints. */
const ALLOWED = new Set([
  'content-type',
  'content-language',
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-expose-headers',
  'access-control-max-age',
  'retry-after',
  'allow',
]);

/**
 * `X-` headers are the bin's own, except these: our security headers, and the ones a reverse proxy in
 * front acts on (nginx's X-Accel-Redirect and Apache's X-Sendfile serve a file of the server's).
 */
const REFUSED_X = [
  'x-frame-options',
  'x-content-type-options',
  'x-xss-protection',
  'x-permitted-cross-domain-policies',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-accel-',
  'x-sendfile',
  'x-lighttpd-',
  'x-litespeed-',
  'x-reproxy-',
  'x-forwarded-',
];

/** RFC 9110 token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Visible ASCII, space and tab: no CR, LF or NUL, nothing Node would refuse to send. */
const VALUE = /^[\t\x20-\x7e]*$/;

/** Whether a bin may set header `name` (any case). */
export function isAllowedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  if (ALLOWED.has(lower)) return true;
  return lower.startsWith('x-') && !REFUSED_X.some((prefix) => lower.startsWith(prefix));
}

/** Why header `name: value` cannot be set, or undefined when it can. */
function headerProblem(name: string, value: string): string | undefined {
  if (!TOKEN.test(name)) return `${JSON.stringify(name)} is not a header name`;
  if (!isAllowedHeader(name)) return `${name} is not a header a bin may set`;
  if (!VALUE.test(value)) return `the value of ${name} must be printable ASCII on one line`;
  if (name.length + value.length > MAX_HEADER_BYTES) return `${name} is over ${MAX_HEADER_BYTES} bytes`;
  return undefined;
}

const refuse = (message: string) => new HttpError(400, `settings.headers: ${message}`, 'settings.headers');

/**
 * Refuses a save whose statusCode or headers could not be applied (400 naming the field). A `null`
 * clears a value the previous revision set (a save's settings are merged over it).
 */
export function checkOutputSettings(settings: Settings): void {
  const { statusCode, headers } = settings;
  if (statusCode !== undefined && statusCode !== null && !isOutputStatus(statusCode)) {
    throw new HttpError(400, `settings.statusCode must be ${STATUS_RULE}`, 'settings.statusCode');
  }
  if (headers === undefined || headers === null) return;
  if (!isJsonObject(headers)) throw refuse('must be an object of header names to strings');
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    if (value === null) continue;
    if (typeof value !== 'string') throw refuse(`the value of ${name} must be a string`);
    const problem = headerProblem(name, value);
    if (problem) throw refuse(problem);
    if (seen.has(name.toLowerCase())) throw refuse(`${name} is given twice`);
    seen.add(name.toLowerCase());
  }
  if (seen.size > MAX_HEADERS) throw refuse(`more than ${MAX_HEADERS} headers`);
}

/** Refuses settings that, merged over the previous revision's, hold more headers than are sent. */
export function checkHeaderCount(merged: Settings): void {
  const { headers } = merged;
  const count = isJsonObject(headers) ? Object.values(headers).filter((value) => typeof value === 'string').length : 0;
  if (count > MAX_HEADERS) throw refuse(`more than ${MAX_HEADERS} headers`);
}

/** What a revision's output is sent with; anything invalid (saved before these checks) is left out. */
export type OutputResponse = { status: number | undefined; headers: [string, string][] };

export function outputResponse(settings: Settings): OutputResponse {
  const { statusCode, headers } = settings;
  const status = isOutputStatus(statusCode) ? statusCode : undefined;
  const list: [string, string][] = [];
  if (isJsonObject(headers)) {
    for (const [name, value] of Object.entries(headers)) {
      if (list.length === MAX_HEADERS) break;
      if (typeof value === 'string' && !headerProblem(name, value)) list.push([name, value]);
    }
  }
  return { status, headers: list };
}

/** Sets a revision's status and headers on `ctx`; call before the security headers, which must win. */
export function applyOutputResponse(ctx: Context, { status, headers }: OutputResponse): void {
  for (const [name, value] of headers) ctx.set(name, value);
  if (status !== undefined) ctx.status = status;
}

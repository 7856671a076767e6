import { HttpError } from '../../http/errors.js';
import { HOP_BY_HOP } from '../../http/hop-by-hop.js';
import { isJsonObject } from '../../http/json-body.js';
import { FAULTS, PICKS, type Delay, type Fault, type Pick } from './record.js';

/**
 * The checks of one record field each, shared by the endpoint and its responses: every failure
 * is a 400 naming the field's path in the record (`responses[1].delay.min`).
 */

// RFC 9110 token: what Node accepts as a header name and as a method.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Hop-by-hop headers belong to one connection (RFC 9110 7.6.1); content-length is the server's to set.
const RESERVED_HEADERS = new Set([...HOP_BY_HOP, 'content-length']);

export function bad(field: string, message: string): HttpError {
  return new HttpError(400, message, field);
}

/** `field` (or the top level when empty) must be an object holding only `allowed` keys. */
export function objectOf(
  value: unknown,
  field: string,
  allowed: readonly string[],
  what: string,
): Record<string, unknown> {
  if (!isJsonObject(value)) throw bad(field, `${field} must be ${what}`);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      const path = field ? `${field}.${key}` : key;
      throw bad(path, `unknown field '${path}'; ${field || 'the record'} takes ${allowed.join(', ')}`);
    }
  }
  return value;
}

/** `data`, serialized exactly as it will be served. */
export function serialize(data: unknown, field: string): string {
  try {
    return JSON.stringify(data);
  } catch {
    // JSON.parse takes any depth, JSON.stringify overflows the stack on very deep nesting
    throw bad(field, `${field} is nested too deeply`);
  }
}

export function checkStatus(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 200 || value > 599) {
    throw bad(field, `${field} must be an integer from 200 to 599`);
  }
  return value;
}

/** A number of milliseconds, or `{ min, max }` drawn from uniformly; both within maxDelay. */
export function checkDelay(value: unknown, field: string, maxDelay: number): Delay {
  const ms = (v: unknown, f: string, rule: string): number => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > maxDelay) throw bad(f, rule);
    return v;
  };
  const rule = `${field} must be a number of milliseconds from 0 to ${maxDelay}`;
  if (typeof value === 'number') return ms(value, field, rule);
  if (!isJsonObject(value)) throw bad(field, `${rule}, or { "min": …, "max": … }`);
  const range = objectOf(value, field, ['min', 'max'], '');
  const each = (key: string) => {
    const f = `${field}.${key}`;
    if (range[key] === undefined) throw bad(f, `${f} is required in a delay range`);
    return ms(range[key], f, `${f} must be a number of milliseconds from 0 to ${maxDelay}`);
  };
  const min = each('min');
  const max = each('max');
  if (min > max) throw bad(`${field}.min`, `${field}.min must not be greater than ${field}.max`);
  return { min, max };
}

function checkBodyText(value: unknown, field: string): string {
  if (typeof value !== 'string') throw bad(field, `${field} must be a string (a raw text body); use data for JSON`);
  return value;
}

// Canonical base64 (RFC 4648 section 4, padded): what Buffer.toString('base64') writes, so what is
// stored reads back as the same bytes and the same text.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function checkBase64(value: unknown, field: string): string {
  const rule = `${field} must be the body's bytes in base64 (padded, without spaces or line breaks)`;
  if (typeof value !== 'string' || !BASE64.test(value)) throw bad(field, rule);
  // The regular expression lets trailing bits through (`QQ==` and `QR==` both decode to "A").
  if (Buffer.from(value, 'base64').toString('base64') !== value) throw bad(field, rule);
  return value;
}

const PAYLOADS = ['data', 'body', 'base64Body'] as const;

/**
 * The answer's body from `data`, `body` or `base64Body` (at most one; one of them when `required`),
 * set on `out` as stored: `data` serialized as `json`. `prefix` is the fields' place with its dot
 * (`responses[0].`), empty for the record's own.
 */
export function checkPayload(
  fields: Record<string, unknown>,
  prefix: string,
  out: { json?: string; body?: string; base64Body?: string },
  required: boolean,
): void {
  // `data` may be null, so it is there when its key is; the others when they are defined.
  const given = PAYLOADS.filter((key) => (key === 'data' ? Object.hasOwn(fields, key) : fields[key] !== undefined));
  const where = prefix ? `${prefix.slice(0, -1)}: ` : '';
  if (given.length > 1) throw bad(`${prefix}${given[1]}`, `${where}give one of data, body and base64Body, not ${given.join(' and ')}`);
  if (given.length === 0) {
    if (required) throw bad(`${prefix}data`, 'data, body or base64Body is required');
    return;
  }
  if (given[0] === 'data') out.json = serialize(fields.data, `${prefix}data`);
  else if (given[0] === 'body') out.body = checkBodyText(fields.body, `${prefix}body`);
  else out.base64Body = checkBase64(fields.base64Body, `${prefix}base64Body`);
}

export function checkFault(value: unknown, field: string): Fault {
  if (!FAULTS.includes(value as Fault)) throw bad(field, `${field} must be one of ${FAULTS.join(', ')}`);
  return value as Fault;
}

export function checkFaultRate(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw bad(field, `${field} must be a number from 0 to 1`);
  }
  return value;
}

export function checkPick(value: unknown, field: string): Pick {
  if (!PICKS.includes(value as Pick)) throw bad(field, `${field} must be one of ${PICKS.join(', ')}`);
  return value as Pick;
}

export function checkBoolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw bad(field, `${field} must be true or false`);
  return value;
}

/** An HTTP method name, upper-cased. */
export function checkMethod(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length > 32 || !TOKEN.test(value)) {
    throw bad(field, `${field} must be an HTTP method name such as GET`);
  }
  return value.toUpperCase();
}

/**
 * Headers sent as given (their case kept); see docs/mock-api.md for what is refused. `reserved` (lower
 * case) are set by `setter` and refused: an answer's by the server, a callback's by its sender.
 */
export function checkHeaders(
  value: unknown,
  field: string,
  reserved: ReadonlySet<string> = RESERVED_HEADERS,
  setter = 'the server',
): Record<string, string> {
  if (!isJsonObject(value)) throw bad(field, `${field} must be an object of header names to string values`);
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, headerValue] of Object.entries(value)) {
    const lower = checkHeaderName(name, field);
    if (reserved.has(lower)) throw bad(field, `${field}: '${name}' is set by ${setter} and cannot be given`);
    if (seen.has(lower)) throw bad(field, `${field}: '${name}' is given twice`);
    headers[name] = checkHeaderValue(headerValue, name, field);
    seen.add(lower);
  }
  return headers;
}

/** A header name, lower-cased; `__proto__` is refused: an object would drop that key without a word. */
export function checkHeaderName(name: string, field: string): string {
  if (!TOKEN.test(name)) throw bad(field, `${field}: '${name}' is not a valid header name`);
  const lower = name.toLowerCase();
  if (lower === '__proto__') throw bad(field, `${field}: '${name}' cannot be used as a header name`);
  return lower;
}

// Node refuses control characters (other than tab) in header values.
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Whether Node will send `value` as a header value: a stored one, or one a template rendered. */
export function isHeaderValue(value: string): boolean {
  return HEADER_VALUE.test(value);
}

export function checkHeaderValue(value: unknown, name: string, field: string): string {
  if (typeof value !== 'string') throw bad(field, `${field}: the value of '${name}' must be a string`);
  if (!isHeaderValue(value)) {
    throw bad(field, `${field}: the value of '${name}' contains characters not allowed in a header`);
  }
  return value;
}

import { HttpError } from '../http/errors.js';
import { isJsonObject } from '../http/json-body.js';

/** What a caller may set on an endpoint; `json` is `data` already serialized, exactly as it will be served. */
export type MockInput = {
  name: string;
  json: string;
  statusCode: number;
  delay: number;
  headers?: Record<string, string>;
};

export type ValidateOptions = {
  /** Upper bound for `delay`, in milliseconds. */
  maxDelay: number;
};

const NAME = /^[A-Za-z0-9._~-]{1,128}$/;
/**
 * Segments the management API's own routes take under /api/endpoint/ (PUT /api/endpoint/add), in
 * lower case as the router matches without regard to case: an endpoint so named could never be replaced.
 */
const RESERVED_NAMES = new Set(['add']);
// RFC 9110 token: what Node accepts as a header name.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Node refuses control characters (other than tab) in header values.
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
// Hop-by-hop headers belong to one connection (RFC 9110 7.6.1); content-length is the server's to set.
const RESERVED_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
]);

/** Checks an endpoint name (from a body or a URL); throws a 400 naming the field. */
export function checkName(name: unknown): string {
  if (name === undefined || name === null) throw bad('name', 'name is required');
  if (typeof name !== 'string') throw bad('name', 'name must be a string');
  if (name === '') throw bad('name', 'name must not be empty');
  if (!NAME.test(name)) {
    throw bad('name', 'name must be 1 to 128 characters, each a letter, a digit or one of . _ ~ -');
  }
  if (name === '.' || name === '..') throw bad('name', "name must not be '.' or '..'");
  if (RESERVED_NAMES.has(name.toLowerCase())) {
    throw bad('name', `name '${name}' is reserved: PUT /api/endpoint/${name} is the API's route that adds endpoints`);
  }
  return name;
}

/**
 * Turns a parsed request body (undefined when empty) into a MockInput, by the rules of
 * docs/mock-api.md. `urlName` is set for PUT /api/endpoint/<name>, where the body's own `name` is
 * optional but must agree. Unknown fields are ignored, as the original service did, so its clients
 * keep working.
 */
export function parseMockInput(body: unknown, options: ValidateOptions, urlName?: string): MockInput {
  if (body === undefined) throw new HttpError(400, 'the request has no body; send a JSON object');
  if (!isJsonObject(body)) throw new HttpError(400, 'request body must be a JSON object');
  const fields = body;
  let name: string;
  if (urlName === undefined) {
    name = checkName(fields.name);
  } else {
    name = checkName(urlName);
    if (fields.name !== undefined && fields.name !== urlName) {
      throw bad('name', `name in the body ('${String(fields.name)}') differs from the name in the URL ('${urlName}')`);
    }
  }
  if (!Object.hasOwn(fields, 'data')) throw bad('data', 'data is required');
  const input: MockInput = {
    name,
    json: serialize(fields.data),
    statusCode: checkStatus(fields.statusCode),
    delay: checkDelay(fields.delay, options.maxDelay),
  };
  if (fields.headers !== undefined) input.headers = checkHeaders(fields.headers);
  return input;
}

function serialize(data: unknown): string {
  try {
    return JSON.stringify(data);
  } catch {
    // JSON.parse takes any depth, JSON.stringify overflows the stack on very deep nesting
    throw bad('data', 'data is nested too deeply');
  }
}

function checkStatus(value: unknown): number {
  if (value === undefined) return 200;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 200 || value > 599) {
    throw bad('statusCode', 'statusCode must be an integer from 200 to 599');
  }
  return value;
}

function checkDelay(value: unknown, maxDelay: number): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > maxDelay) {
    throw bad('delay', `delay must be a number of milliseconds from 0 to ${maxDelay}`);
  }
  return value;
}

function checkHeaders(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw bad('headers', 'headers must be an object of header names to string values');
  }
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, headerValue] of Object.entries(value)) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) throw bad('headers', `headers: '${name}' is not a valid header name`);
    // JSON.parse keeps "__proto__" as a key, but assigning it to an object would drop it without a word.
    if (lower === '__proto__') throw bad('headers', `headers: '${name}' cannot be used as a header name`);
    if (RESERVED_HEADERS.has(lower)) {
      throw bad('headers', `headers: '${name}' is set by the server and cannot be given`);
    }
    if (seen.has(lower)) throw bad('headers', `headers: '${name}' is given twice`);
    if (typeof headerValue !== 'string') throw bad('headers', `headers: the value of '${name}' must be a string`);
    if (!HEADER_VALUE.test(headerValue)) {
      throw bad('headers', `headers: the value of '${name}' contains characters not allowed in a header`);
    }
    seen.add(lower);
    headers[name] = headerValue;
  }
  return headers;
}

function bad(field: string, message: string): HttpError {
  return new HttpError(400, message, field);
}

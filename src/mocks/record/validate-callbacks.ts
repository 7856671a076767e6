import type { Callback } from './record.js';
import { compileCallbacks } from './callback-templates.js';
import { TemplateError } from '../templates/template.js';
import { bad, checkHeaders, checkMethod, objectOf, serialize } from './validate-fields.js';

/** Most callbacks one answer may send. */
export const MAX_CALLBACKS = 10;
/** Longest URL template, in characters. */
const MAX_URL = 2048;

const FIELDS = ['method', 'url', 'headers', 'body', 'delay'] as const;

/**
 * Headers the sender sets from what it sends (length, framing, the host of the URL): a given one
 * would contradict the request, or point it at a host the URL does not name.
 */
const SENDER_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  // How deep in callbacks of callbacks it is (../callbacks/sender.ts): a given one could hide a loop.
  'x-snippetkit-callback',
]);

/** `callbacks` of an endpoint or a response (docs/mock-api.md, "Callbacks"); throws a 400 naming the field. */
export function checkCallbacks(value: unknown, field: string, maxDelay: number): Callback[] {
  if (!Array.isArray(value)) throw bad(field, `${field} must be a list of requests to send after answering`);
  if (value.length > MAX_CALLBACKS) throw bad(field, `${field} must hold at most ${MAX_CALLBACKS} callbacks`);
  const callbacks = value.map((item, i) => checkCallback(item, `${field}[${i}]`, maxDelay));
  // Compiled now, so a template's syntax error is a 400 at save rather than a failed callback per request.
  try {
    compileCallbacks(callbacks, field);
  } catch (err) {
    if (err instanceof TemplateError) throw bad(err.field, err.message);
    throw err;
  }
  return callbacks;
}

function checkCallback(value: unknown, field: string, maxDelay: number): Callback {
  const fields = objectOf(value, field, FIELDS, 'an object (a request to send: method, url, headers, body, delay)');
  const callback: Callback = {
    method: fields.method === undefined ? 'POST' : checkMethod(fields.method, `${field}.method`),
    url: checkUrl(fields.url, `${field}.url`),
  };
  if (fields.headers !== undefined) callback.headers = checkHeaders(fields.headers, `${field}.headers`, SENDER_HEADERS, 'the sender');
  if (fields.body !== undefined) {
    if (callback.method === 'GET' || callback.method === 'HEAD') {
      throw bad(`${field}.body`, `${field}: a ${callback.method} request sends no body`);
    }
    if (typeof fields.body !== 'string') serialize(fields.body, `${field}.body`);
    callback.body = fields.body;
  }
  if (fields.delay !== undefined) callback.delay = checkCallbackDelay(fields.delay, `${field}.delay`, maxDelay);
  return callback;
}

/**
 * The URL as a template. One without `{{` is checked whole now; a templated one is checked after it
 * is rendered, per request, by the callback hosts policy (../callbacks/hosts.ts) as every URL is.
 */
function checkUrl(value: unknown, field: string): string {
  if (value === undefined) throw bad(field, `${field} is required: the address to send the callback to`);
  if (typeof value !== 'string' || value === '') throw bad(field, `${field} must be an http:// or https:// address`);
  if (value.length > MAX_URL) throw bad(field, `${field} must be at most ${MAX_URL} characters`);
  if (value.includes('{{')) {
    // The scheme and host are the policy's to judge; they may come from the request, but must be there.
    if (!/^https?:\/\//i.test(value)) throw bad(field, `${field} must start with http:// or https://`);
    return value;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bad(field, `${field}: '${value}' is not an address`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad(field, `${field} must be an http:// or https:// address`);
  if (url.username || url.password) throw bad(field, `${field} must not carry a user name or password; send an Authorization header`);
  return value;
}

function checkCallbackDelay(value: unknown, field: string, maxDelay: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > maxDelay) {
    throw bad(field, `${field} must be a whole number of milliseconds from 0 to ${maxDelay}`);
  }
  return value;
}

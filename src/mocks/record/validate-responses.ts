import { isJsonObject } from '../../http/json-body.js';
import type { ResponseRecord, When } from './record.js';
import {
  bad,
  checkDelay,
  checkFault,
  checkFaultRate,
  checkHeaderName,
  checkHeaders,
  checkHeaderValue,
  checkMethod,
  checkPayload,
  checkStatus,
  objectOf,
  serialize,
} from './validate-fields.js';
import { checkState } from './validate-scenario.js';
import { checkCallbacks } from './validate-callbacks.js';
import { checkContent } from './media/media.js';

/** Most alternative answers an endpoint may have. */
export const MAX_RESPONSES = 100;

const RESPONSE_FIELDS = ['when', 'statusCode', 'data', 'body', 'base64Body', 'headers', 'delay', 'fault', 'faultRate', 'setState', 'callbacks', 'content', 'anyStatus'] as const;
const WHEN_FIELDS = ['method', 'params', 'query', 'headers', 'body', 'state'] as const;

export type ResponsesContext = {
  maxDelay: number;
  /** The parameters the endpoint's path has: a `when.params` naming another could never match. */
  params: readonly string[];
  /** Whether the endpoint has a fault a response's `faultRate` could apply to. */
  fault: boolean;
};

export function checkResponses(value: unknown, context: ResponsesContext): ResponseRecord[] {
  if (!Array.isArray(value)) throw bad('responses', 'responses must be a list of alternative answers');
  if (value.length > MAX_RESPONSES) throw bad('responses', `responses must hold at most ${MAX_RESPONSES} answers`);
  return value.map((item, i) => checkResponse(item, `responses[${i}]`, context));
}

function checkResponse(value: unknown, field: string, context: ResponsesContext): ResponseRecord {
  const fields = objectOf(value, field, RESPONSE_FIELDS, 'an object (an alternative answer)');
  const out: ResponseRecord = {};
  if (fields.when !== undefined) out.when = checkWhen(fields.when, `${field}.when`, context.params);
  if (fields.statusCode !== undefined) out.statusCode = checkStatus(fields.statusCode, `${field}.statusCode`);
  checkPayload(fields, `${field}.`, out, false);
  if (fields.headers !== undefined) out.headers = checkHeaders(fields.headers, `${field}.headers`);
  if (fields.delay !== undefined) out.delay = checkDelay(fields.delay, `${field}.delay`, context.maxDelay);
  if (fields.fault !== undefined) out.fault = checkFault(fields.fault, `${field}.fault`);
  if (fields.faultRate !== undefined) {
    if (!out.fault && !context.fault) {
      throw bad(`${field}.faultRate`, `${field}.faultRate needs a fault (in the response or the endpoint)`);
    }
    out.faultRate = checkFaultRate(fields.faultRate, `${field}.faultRate`);
  }
  if (fields.setState !== undefined) out.setState = checkState(fields.setState, `${field}.setState`);
  if (fields.callbacks !== undefined) out.callbacks = checkCallbacks(fields.callbacks, `${field}.callbacks`, context.maxDelay);
  if (fields.content !== undefined) out.content = checkContent(fields.content, `${field}.content`);
  if (fields.anyStatus !== undefined) {
    if (typeof fields.anyStatus !== 'boolean') throw bad(`${field}.anyStatus`, `${field}.anyStatus must be true or false`);
    out.anyStatus = fields.anyStatus;
  }
  return out;
}

function checkWhen(value: unknown, field: string, params: readonly string[]): When {
  const fields = objectOf(value, field, WHEN_FIELDS, 'an object of the request parts to match');
  const when: When = {};
  if (fields.method !== undefined) when.method = checkWhenMethod(fields.method, `${field}.method`);
  if (fields.params !== undefined) {
    when.params = stringMap(fields.params, `${field}.params`, (name) => {
      if (!params.includes(name)) {
        const known = params.length > 0 ? `it has ${params.map((p) => `'${p}'`).join(', ')}` : 'it has none';
        throw bad(`${field}.params`, `${field}.params: the path has no parameter '${name}' (${known})`);
      }
      return name;
    });
  }
  if (fields.query !== undefined) when.query = checkQuery(fields.query, `${field}.query`);
  if (fields.headers !== undefined) {
    const f = `${field}.headers`;
    const headers = stringMap(fields.headers, f, (name) => checkHeaderName(name, f));
    for (const [name, v] of Object.entries(headers)) checkHeaderValue(v, name, f);
    when.headers = headers;
  }
  if (fields.body !== undefined) {
    const f = `${field}.body`;
    if (!isJsonObject(fields.body)) throw bad(f, `${f} must be an object the request's JSON body contains`);
    serialize(fields.body, f);
    when.body = fields.body;
  }
  if (fields.state !== undefined) when.state = checkState(fields.state, `${field}.state`);
  return when;
}

function checkWhenMethod(value: unknown, field: string): string[] {
  if (typeof value === 'string') return [checkMethod(value, field)];
  if (!Array.isArray(value) || value.length === 0 || value.length > 32) {
    throw bad(field, `${field} must be a method name or a non-empty list of them`);
  }
  return [...new Set(value.map((method, i) => checkMethod(method, `${field}[${i}]`)))];
}

/** Each key equal to a string, or to any string of a non-empty list. */
function checkQuery(value: unknown, field: string): Record<string, string | string[]> {
  const rule = `${field} must be an object of parameter names to a string or a non-empty list of strings`;
  if (!isJsonObject(value)) throw bad(field, rule);
  const out: Record<string, string | string[]> = {};
  for (const [name, v] of Object.entries(value)) {
    refuseProto(name, field);
    const ok = typeof v === 'string' || (Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string'));
    if (!ok) throw bad(field, rule);
    out[name] = v as string | string[];
  }
  return out;
}

/** An object of string values, its keys checked (and renamed) by `key`. */
function stringMap(value: unknown, field: string, key: (name: string) => string): Record<string, string> {
  const rule = `${field} must be an object of names to string values`;
  if (!isJsonObject(value)) throw bad(field, rule);
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    refuseProto(name, field);
    const checked = key(name);
    if (typeof v !== 'string') throw bad(field, `${field}: the value of '${name}' must be a string`);
    if (Object.hasOwn(out, checked)) throw bad(field, `${field}: '${name}' is given twice`);
    out[checked] = v;
  }
  return out;
}

// JSON.parse keeps "__proto__" as a key, but assigning it to an object would drop it without a word.
function refuseProto(name: string, field: string): void {
  if (name === '__proto__') throw bad(field, `${field}: '__proto__' cannot be used as a name`);
}

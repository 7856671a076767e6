import { HttpError } from '../../../http/errors.js';
import { isJsonObject, nestedDeeperThan } from '../../../http/json-body.js';

/**
 * What an endpoint expects of a request (docs/mock-api.md, "Request validation"): its parameters,
 * its body and the credentials of its security schemes, as an OpenAPI operation states them. The
 * schemas are JSON Schema 2020-12; they are compiled when the first request is checked, not here.
 */
export type Expects = {
  params?: ExpectedParam[];
  body?: ExpectedBody;
  /** Alternatives, any one of which must be present whole; an empty alternative lets anyone in. */
  security?: Credential[][];
};

export type ParamPlace = 'path' | 'query' | 'header' | 'cookie';
export const PARAM_PLACES: readonly ParamPlace[] = ['path', 'query', 'header', 'cookie'];

export type ExpectedParam = {
  in: ParamPlace;
  /** A header's name in lower case; a path parameter's as the route names it. */
  name: string;
  required?: boolean;
  schema?: Record<string, unknown>;
  /** false: an array is one value split at commas (`?ids=1,2`), not the parameter repeated. */
  explode?: boolean;
};

export type ExpectedBody = {
  required?: boolean;
  /** Media types (`application/json`, `image/*`) the body may have, each with an optional schema. */
  content: Record<string, { schema?: Record<string, unknown> }>;
};

/** Where one credential goes; for the Authorization header, `scheme` is the one it must start with (`bearer`). */
export type Credential = { in: 'header' | 'query' | 'cookie'; name: string; scheme?: string };

// A record is anyone's: bounds on everything a request's check will walk or compile. ajv's compiling
// cannot be interrupted and costs 7 to 10 ms a KiB of schema on the 2-core machine (30 KiB: 760
// properties 290 ms, 125 patterns 240 ms, 430 anyOf branches 210 ms): at 32 KiB, one compile stays
// near the default CPU budget of a request.
export const MAX_EXPECTS_BYTES = 32 * 1024;
export const MAX_SCHEMA_DEPTH = 32;
export const MAX_PARAMS = 100;
export const MAX_MEDIA_TYPES = 20;
const MAX_ALTERNATIVES = 20;
const MAX_CREDENTIALS = 10;
const NAME = /^[\x21-\x7e]{1,256}$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
const MEDIA_TYPE = /^(\*|[!#$%&'*+.^_`|~0-9A-Za-z-]+)\/(\*|[!#$%&'*+.^_`|~0-9A-Za-z-]+)$/;

/** `expects` checked (a 400 naming the field otherwise), copied with only the keys it may have. */
export function checkExpects(value: unknown, field: string): Expects {
  const fields = objectOf(value, field, ['params', 'body', 'security']);
  let size: number;
  try {
    size = JSON.stringify(value).length;
  } catch {
    throw bad(field, `${field} is nested too deeply`);
  }
  if (size > MAX_EXPECTS_BYTES) throw bad(field, `${field} is longer than ${MAX_EXPECTS_BYTES} characters of JSON`);
  const expects: Expects = {};
  if (fields.params !== undefined) expects.params = checkParams(fields.params, `${field}.params`);
  if (fields.body !== undefined) expects.body = checkBody(fields.body, `${field}.body`);
  if (fields.security !== undefined) expects.security = checkSecurity(fields.security, `${field}.security`);
  return expects;
}

function checkParams(value: unknown, field: string): ExpectedParam[] {
  const list = listOf(value, field, MAX_PARAMS);
  const seen = new Set<string>();
  return list.map((item, i) => {
    const at = `${field}[${i}]`;
    const given = objectOf(item, at, ['in', 'name', 'required', 'schema', 'explode']);
    if (!PARAM_PLACES.includes(given.in as ParamPlace)) throw bad(`${at}.in`, `${at}.in must be one of ${PARAM_PLACES.join(', ')}`);
    const place = given.in as ParamPlace;
    let name = checkName(given.name, `${at}.name`);
    if (place === 'header') name = name.toLowerCase();
    if (seen.has(`${place} ${name}`)) throw bad(`${at}.name`, `${at}: the ${place} parameter '${name}' is given twice`);
    seen.add(`${place} ${name}`);
    const param: ExpectedParam = { in: place, name };
    if (given.required !== undefined) param.required = checkFlag(given.required, `${at}.required`);
    if (given.schema !== undefined) param.schema = checkSchema(given.schema, `${at}.schema`);
    if (given.explode !== undefined) param.explode = checkFlag(given.explode, `${at}.explode`);
    return param;
  });
}

function checkBody(value: unknown, field: string): ExpectedBody {
  const given = objectOf(value, field, ['required', 'content']);
  const content = objectOf(given.content ?? {}, `${field}.content`, undefined);
  const types = Object.entries(content);
  if (types.length > MAX_MEDIA_TYPES) throw bad(`${field}.content`, `${field}.content has more than ${MAX_MEDIA_TYPES} media types`);
  const body: ExpectedBody = { content: {} };
  if (given.required !== undefined) body.required = checkFlag(given.required, `${field}.required`);
  body.content = Object.fromEntries(
    types.map(([type, media]) => {
      const at = `${field}.content.${type}`;
      if (!MEDIA_TYPE.test(type)) throw bad(`${field}.content`, `${field}.content: '${type}' is not a media type such as application/json`);
      const spec = objectOf(media, at, ['schema']);
      return [type.toLowerCase(), spec.schema === undefined ? {} : { schema: checkSchema(spec.schema, `${at}.schema`) }];
    }),
  );
  return body;
}

function checkSecurity(value: unknown, field: string): Credential[][] {
  return listOf(value, field, MAX_ALTERNATIVES).map((alternative, i) =>
    listOf(alternative, `${field}[${i}]`, MAX_CREDENTIALS).map((item, j) => {
      const at = `${field}[${i}][${j}]`;
      const given = objectOf(item, at, ['in', 'name', 'scheme']);
      if (!['header', 'query', 'cookie'].includes(given.in as string)) throw bad(`${at}.in`, `${at}.in must be one of header, query, cookie`);
      const place = given.in as Credential['in'];
      const name = checkName(given.name, `${at}.name`);
      const credential: Credential = { in: place, name: place === 'header' ? name.toLowerCase() : name };
      if (given.scheme !== undefined) {
        if (typeof given.scheme !== 'string' || !TOKEN.test(given.scheme)) throw bad(`${at}.scheme`, `${at}.scheme must be an authentication scheme such as bearer`);
        credential.scheme = given.scheme.toLowerCase();
      }
      return credential;
    }),
  );
}

/** A schema: a JSON object nested at most MAX_SCHEMA_DEPTH deep. */
function checkSchema(value: unknown, field: string): Record<string, unknown> {
  if (!isJsonObject(value)) throw bad(field, `${field} must be a JSON Schema object`);
  if (nestedDeeperThan(value, MAX_SCHEMA_DEPTH)) throw bad(field, `${field} is nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
  return value;
}

function checkName(value: unknown, field: string): string {
  if (typeof value !== 'string' || !NAME.test(value)) throw bad(field, `${field} must be 1 to 256 printable characters`);
  if (value === '__proto__') throw bad(field, `${field} cannot be '__proto__'`);
  return value;
}

/** Whether a parameter or credential may have this name in a record. */
export function isExpectedName(name: string): boolean {
  return NAME.test(name) && name !== '__proto__';
}

function checkFlag(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw bad(field, `${field} must be true or false`);
  return value;
}

function listOf(value: unknown, field: string, max: number): unknown[] {
  if (!Array.isArray(value)) throw bad(field, `${field} must be a list`);
  if (value.length > max) throw bad(field, `${field} has more than ${max} items`);
  return value;
}

/** `value` must be an object; with `allowed`, holding only those keys. */
function objectOf(value: unknown, field: string, allowed: readonly string[] | undefined): Record<string, unknown> {
  if (!isJsonObject(value)) throw bad(field, `${field} must be an object`);
  if (allowed) {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) throw bad(`${field}.${key}`, `unknown field '${field}.${key}'; ${field} takes ${allowed.join(', ')}`);
    }
  }
  return value;
}

function bad(field: string, message: string): HttpError {
  return new HttpError(400, message, field);
}

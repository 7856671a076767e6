import { HttpError } from '../../../http/errors.js';
import { isJsonObject, nestedDeeperThan } from '../../../http/json-body.js';

/**
 * One media type an answer can be sent as (docs/mock-api.md, "Media types and named examples"):
 * its value (`data` for JSON types, `body` text for others), named examples chosen with
 * `Prefer: example=NAME`, and the schema `Prefer: dynamic=true` samples.
 */
export type MediaContent = {
  data?: unknown;
  body?: string;
  examples?: Record<string, { data?: unknown; body?: string }>;
  schema?: Record<string, unknown>;
};

/** An answer's media types by their type (`application/xml`), in the order the document gives them. */
export type Content = Record<string, MediaContent>;

const MAX_TYPES = 20;
const MAX_EXAMPLES = 50;
// What `Prefer: dynamic=true` samples per request: bounded like a request check's schemas.
export const MAX_SAMPLED_SCHEMA_BYTES = 32 * 1024;
const MAX_SCHEMA_DEPTH = 32;
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const EXAMPLE_NAME = /^[\x21-\x7e]{1,128}$/;

/** `content` checked (a 400 naming the field otherwise), copied with only the keys it may have. */
export function checkContent(value: unknown, field: string): Content {
  const types = entriesOf(value, field);
  if (types.length > MAX_TYPES) throw bad(field, `${field} has more than ${MAX_TYPES} media types`);
  const content: Content = {};
  for (const [type, media] of types) {
    if (!MEDIA_TYPE.test(type)) throw bad(field, `${field}: '${type}' is not a media type such as application/xml`);
    const at = `${field}.${type}`;
    const given = objectOf(media, at, ['data', 'body', 'examples', 'schema']);
    const out: MediaContent = valueOf(given, at);
    if (given.examples !== undefined) {
      const examples = entriesOf(given.examples, `${at}.examples`);
      if (examples.length > MAX_EXAMPLES) throw bad(`${at}.examples`, `${at}.examples has more than ${MAX_EXAMPLES} examples`);
      out.examples = Object.fromEntries(
        examples.map(([name, example]) => {
          if (!EXAMPLE_NAME.test(name) || name === '__proto__') throw bad(`${at}.examples`, `${at}.examples: '${name}' is not a name of 1 to 128 printable characters`);
          const one = objectOf(example, `${at}.examples.${name}`, ['data', 'body']);
          return [name, valueOf(one, `${at}.examples.${name}`)];
        }),
      );
    }
    if (given.schema !== undefined) out.schema = checkSchema(given.schema, `${at}.schema`);
    content[type.toLowerCase()] = out;
  }
  return content;
}

function valueOf(given: Record<string, unknown>, field: string): { data?: unknown; body?: string } {
  if (Object.hasOwn(given, 'data') && given.body !== undefined) throw bad(field, `${field}: give data or body, not both`);
  if (given.body !== undefined && typeof given.body !== 'string') throw bad(`${field}.body`, `${field}.body must be a string`);
  return Object.hasOwn(given, 'data') ? { data: given.data } : given.body !== undefined ? { body: given.body } : {};
}

function checkSchema(value: unknown, field: string): Record<string, unknown> {
  if (!isJsonObject(value)) throw bad(field, `${field} must be a schema object`);
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    throw bad(field, `${field} is nested too deeply`);
  }
  if (text.length > MAX_SAMPLED_SCHEMA_BYTES) throw bad(field, `${field} is longer than ${MAX_SAMPLED_SCHEMA_BYTES} characters of JSON`);
  if (nestedDeeperThan(value, MAX_SCHEMA_DEPTH)) throw bad(field, `${field} is nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
  return value;
}

function entriesOf(value: unknown, field: string): [string, unknown][] {
  if (!isJsonObject(value)) throw bad(field, `${field} must be an object`);
  return Object.entries(value);
}

function objectOf(value: unknown, field: string, allowed: readonly string[]): Record<string, unknown> {
  if (!isJsonObject(value)) throw bad(field, `${field} must be an object`);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw bad(`${field}.${key}`, `unknown field '${field}.${key}'; ${field} takes ${allowed.join(', ')}`);
  }
  return value;
}

function bad(field: string, message: string): HttpError {
  return new HttpError(400, message, field);
}

import { isJsonObject } from '../../http/json-body.js';
import type { LoggedRequest } from '../log/request-log.js';
import { contains } from '../serve/when-match.js';
import type { SchemaTest } from './body-schema.js';
import { pathAfterPrefix, type RequestPattern } from './pattern.js';

/** A logged request with the endpoint that answered it, or null for one no endpoint answered. */
export type JournalEntry = LoggedRequest & { endpoint: string | null };

/** One part of a pattern a request did not meet: what was asked for and what the request had (null: nothing). */
export type Difference = { field: string; expected: string; actual: string | null };

/** How much of a request's value a difference shows. */
const SHOWN = 200;

/**
 * The test of `pattern`: every part of it a request does not meet, in the pattern's order; none, it
 * matches. Made once per pattern, so what the pattern needs worked out (its body as JSON) is worked
 * out once; `schema` is its `bodySchema`, compiled (body-schema.ts).
 */
export function differencesFrom(pattern: RequestPattern, schema?: SchemaTest): (entry: JournalEntry) => Difference[] {
  const wanted = pattern.bodyContains === undefined ? undefined : parsed(pattern.bodyContains);
  return (entry) => differences(entry, pattern, wanted, schema);
}

function differences(entry: JournalEntry, pattern: RequestPattern, wanted: unknown, schema: SchemaTest | undefined): Difference[] {
  const found: Difference[] = [];
  const differ = (field: string, expected: string, actual: string | null) => found.push({ field, expected, actual: shown(actual) });
  if (pattern.name !== undefined && entry.endpoint !== pattern.name) differ('name', pattern.name, entry.endpoint);
  if (pattern.method !== undefined && entry.method !== pattern.method) differ('method', pattern.method, entry.method);
  if (pattern.path !== undefined) {
    const path = pathAfterPrefix(entry.url);
    if (path !== pattern.path) differ('path', pattern.path, path);
  }
  if (pattern.query !== undefined) {
    const mark = entry.url.indexOf('?');
    const params = new URLSearchParams(mark === -1 ? '' : entry.url.slice(mark + 1));
    for (const [key, value] of Object.entries(pattern.query)) {
      const values = params.getAll(key);
      if (!values.includes(value)) differ(`query.${key}`, value, values.length > 0 ? values.join(', ') : null);
    }
  }
  if (pattern.headers !== undefined) {
    for (const [name, value] of Object.entries(pattern.headers)) {
      const got = entry.headers[name];
      const actual = got === undefined ? null : Array.isArray(got) ? got.join(', ') : got;
      if (actual !== value) differ(`headers.${name}`, value, actual);
    }
  }
  if (pattern.bodyContains !== undefined && !bodyContains(entry.body, pattern.bodyContains, wanted)) {
    differ('body', `contains ${pattern.bodyContains}`, entry.body === '' ? null : entry.body);
  }
  const miss = schema?.(entry.body);
  if (miss !== undefined) {
    // `body /items/0/qty: must be >= 1`; a body that is not JSON is one difference, the whole body.
    const field = miss.at === '' ? 'body' : `body ${miss.at}`;
    differ(field, miss.expected, miss.value);
  }
  return found;
}

/** The text is in the body, or both are JSON objects (`wanted` is the text parsed) and the body has every key of it, deep-equal. */
function bodyContains(body: string, text: string, wanted: unknown): boolean {
  if (body.includes(text)) return true;
  // A body is parsed only when the wanted text is an object: plain text needs no parse of each body.
  if (!isJsonObject(wanted)) return false;
  const got = parsed(body);
  return isJsonObject(got) && contains(got, wanted);
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function shown(value: string | null): string | null {
  return value !== null && value.length > SHOWN ? `${value.slice(0, SHOWN)}…` : value;
}

import { HttpError } from '../../http/errors.js';
import { isJsonObject } from '../../http/json-body.js';
import { parseBodySchema } from './schema-bounds.js';

/**
 * Which logged requests a verification or a journal query means (docs/testing-with-mocks.md): every part
 * given must hold. `path` is the path after /endpoint/ (a leading `/endpoint/` or `/` is taken off), without
 * the query; `query` and `headers` values are exact (header names in any case); `bodyContains` is text the
 * body holds, or, when both are JSON objects, an object the body contains (the same test as `when.body`);
 * `bodySchema` is a JSON Schema the body, parsed as JSON, validates against (body-schema.ts).
 */
export type RequestPattern = {
  name?: string;
  method?: string;
  path?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  bodyContains?: string;
  bodySchema?: Record<string, unknown>;
};

/** What the CPU gate's refusal of a verification names. */
export const VERIFY_WORK = 'the verification';

/** How many matching requests a verification expects: exactly, at least, at most (one of each at most). */
export type Expected = { count?: number; atLeast?: number; atMost?: number };

const MAX_KEYS = 50;
const MAX_TEXT = 64 * 1024;
const PATTERN_KEYS = ['name', 'method', 'path', 'query', 'headers', 'bodyContains', 'bodySchema'];
const EXPECT_KEYS = ['count', 'atLeast', 'atMost'];

/** The pattern and expectation of a POST /api/verify body; a 400 naming the field for anything else. */
export function parseVerification(body: Record<string, unknown>): { pattern: RequestPattern; expected: Expected } {
  for (const key of Object.keys(body)) {
    if (!PATTERN_KEYS.includes(key) && !EXPECT_KEYS.includes(key)) {
      throw new HttpError(400, `unknown field '${key}': a verification takes ${[...PATTERN_KEYS, ...EXPECT_KEYS].join(', ')}`, key);
    }
  }
  const expected: Expected = {};
  for (const key of EXPECT_KEYS as (keyof Expected)[]) {
    const value = body[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || (value as number) < 0) throw new HttpError(400, `${key} must be a whole number of 0 or more`, key);
    expected[key] = value as number;
  }
  if (expected.count !== undefined && (expected.atLeast !== undefined || expected.atMost !== undefined)) {
    throw new HttpError(400, 'give count, or atLeast and/or atMost, not both', 'count');
  }
  if (expected.atLeast !== undefined && expected.atMost !== undefined && expected.atLeast > expected.atMost) {
    throw new HttpError(400, 'atLeast is more than atMost: no count can satisfy both', 'atLeast');
  }
  return { pattern: parsePattern(body), expected };
}

/** The pattern of a JSON body (`query` and `headers` as objects of strings). */
export function parsePattern(body: Record<string, unknown>): RequestPattern {
  const pattern: RequestPattern = {};
  for (const key of ['name', 'method', 'path', 'bodyContains'] as const) {
    const value = body[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > MAX_TEXT) throw new HttpError(400, `${key} must be a string of at most 64 KiB`, key);
    pattern[key] = value;
  }
  if (pattern.method !== undefined) pattern.method = pattern.method.toUpperCase();
  if (pattern.path !== undefined) pattern.path = pathAfterPrefix(pattern.path);
  for (const key of ['query', 'headers'] as const) {
    const value = body[key];
    if (value === undefined) continue;
    if (!isJsonObject(value)) throw new HttpError(400, `${key} must be an object of names to values`, key);
    const entries = Object.entries(value);
    if (entries.length > MAX_KEYS) throw new HttpError(400, `${key} may name at most ${MAX_KEYS} keys`, key);
    for (const [name, text] of entries) {
      if (typeof text !== 'string' || text.length > MAX_TEXT) throw new HttpError(400, `${key}.${name} must be a string`, `${key}.${name}`);
    }
    pattern[key] = key === 'headers' ? lowerCaseNames(value as Record<string, string>) : (value as Record<string, string>);
  }
  if (body.bodySchema !== undefined) pattern.bodySchema = parseBodySchema(body.bodySchema);
  // In one order whatever the body's, so messages and answers read the same for the same pattern.
  const ordered: Record<string, unknown> = {};
  for (const key of PATTERN_KEYS) if (pattern[key as keyof RequestPattern] !== undefined) ordered[key] = pattern[key as keyof RequestPattern];
  return ordered as RequestPattern;
}

/**
 * The pattern of GET /api/requests' query string: `name`, `method`, `path`, `bodyContains`, and
 * `query.KEY=VALUE`, `headers.NAME=VALUE` for the parts of the request's own query and headers.
 */
export function patternFromQuery(query: Record<string, string | string[] | undefined>): RequestPattern {
  const body: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(query)) {
    if (raw === undefined) continue;
    if (Array.isArray(raw)) throw new HttpError(400, `${key} is given more than once`, key);
    const dot = key.indexOf('.');
    const group = dot === -1 ? '' : key.slice(0, dot);
    if (group === 'query' || group === 'headers') {
      const parts = (body[group] ??= {}) as Record<string, string>;
      parts[key.slice(dot + 1)] = raw;
    } else if (key === 'bodySchema') {
      throw new HttpError(400, 'bodySchema is too long for a query string: POST it to /api/verify', key);
    } else if (PATTERN_KEYS.includes(key) && key !== 'query' && key !== 'headers') {
      body[key] = raw;
    } else if (key !== 'limit') {
      throw new HttpError(400, `unknown parameter '${key}': use name, method, path, bodyContains, query.KEY or headers.NAME`, key);
    }
  }
  return parsePattern(body);
}

/** What follows /endpoint/ in a path (or the path, without leading slashes), without its query. */
export function pathAfterPrefix(url: string): string {
  const query = url.indexOf('?');
  let path = query === -1 ? url : url.slice(0, query);
  if (path.startsWith('/endpoint/')) path = path.slice('/endpoint/'.length);
  return path.replace(/^\/+/, '');
}

function lowerCaseNames(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name.toLowerCase(), value]));
}

/** The expectation in words: "exactly 2", "at least 1", "between 1 and 3". */
export function describeExpected({ count, atLeast, atMost }: Expected): string {
  if (count !== undefined) return `exactly ${count}`;
  if (atLeast !== undefined && atMost !== undefined) return `between ${atLeast} and ${atMost}`;
  if (atMost !== undefined) return `at most ${atMost}`;
  return `at least ${atLeast ?? 1}`;
}

/** Whether `matched` requests meet the expectation; none given means at least one. */
export function meets({ count, atLeast, atMost }: Expected, matched: number): boolean {
  if (count !== undefined) return matched === count;
  if (atLeast === undefined && atMost === undefined) return matched >= 1;
  return matched >= (atLeast ?? 0) && matched <= (atMost ?? Infinity);
}

import type { StoredMock } from '../record/record.js';

/** The header a recorded endpoint carries: it marks the endpoint as a recording and names where it came from. */
export const RECORDED_HEADER = 'x-snippetkit-recorded';

/** A query as `when.query` holds it: each key once, a repeated key as the list of its values in order. */
export type QueryRecord = Record<string, string | string[]>;

/** The query of a request URL (`/a?x=1&x=2`) as a `when.query`; `{}` when it has none. */
export function queryOf(url: string): QueryRecord {
  const at = url.indexOf('?');
  const query: QueryRecord = {};
  if (at === -1) return query;
  for (const [key, value] of new URLSearchParams(url.slice(at + 1))) {
    const had = Object.hasOwn(query, key) ? query[key] : undefined;
    query[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  return query;
}

/** One text per distinct query, whatever the order of its keys: two queries are the same recording when equal. */
export function queryKey(query: QueryRecord): string {
  const keys = Object.keys(query).sort();
  return JSON.stringify(keys.map((key) => [key, query[key]]));
}

/**
 * True when `record` is a recording (it carries RECORDED_HEADER) and none of its answers was recorded
 * for exactly this query: with --proxy the request goes upstream (and is recorded) instead of being
 * answered with another query's recording, which `when.query` would match as it ignores extra keys.
 */
export function isUnrecorded(record: StoredMock, url: string): boolean {
  if (record.headers?.[RECORDED_HEADER] === undefined) return false;
  const key = queryKey(queryOf(url));
  return !(record.responses ?? []).some((response) => response.when?.query && queryKey(response.when.query) === key);
}

import type { StoredMock } from '../record/record.js';
import { queryKey, queryOf, RECORDED_HEADER } from '../record/recording.js';

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

import type { CpuBudget } from '../../gates/cpu-budget.js';
import type { MockStore } from '../store/store.js';
import type { SchemaTest } from './body-schema.js';
import { differencesFrom, type Difference, type JournalEntry } from './differences.js';
import { VERIFY_WORK, type RequestPattern } from './pattern.js';

/** How many near misses a failed verification lists. */
const NEAR_MISSES = 3;

/**
 * Every request the logs hold, newest first: each endpoint's log (its newest --log-size requests) and the
 * unmatched one; only `name`'s log when the pattern names an endpoint. `incomplete` is true when a log in
 * scope is full: it may have let older requests go, so a count may be short of what was sent.
 */
export function journal(store: MockStore, pattern: RequestPattern): { entries: JournalEntry[]; incomplete: boolean } {
  const entries: JournalEntry[] = [];
  let incomplete = false;
  const endpoints = pattern.name === undefined ? store.list() : [store.get(pattern.name)].filter((e) => e !== undefined);
  for (const { record, stats } of endpoints) {
    if (stats.requests.size >= stats.requests.capacity) incomplete = true;
    for (const entry of stats.requests.newestFirst()) entries.push({ ...entry, endpoint: record.name });
  }
  if (pattern.name === undefined) {
    if (store.unmatched.size >= store.unmatched.capacity) incomplete = true;
    for (const entry of store.unmatched.newestFirst()) entries.push({ ...entry, endpoint: null });
  }
  // ISO times sort as text; the sort is stable, so requests of the same millisecond keep their log order.
  entries.sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
  return { entries, incomplete };
}

/**
 * The requests in `entries` that match `pattern` (its `bodySchema` compiled as `schema`), and the
 * closest of the rest with what differed. The CPU gate's `budget` is checked before each request:
 * past it, CpuBudgetExceeded, never a partial count.
 */
export function matchAll(entries: JournalEntry[], pattern: RequestPattern, budget: CpuBudget, schema?: SchemaTest) {
  const matched: JournalEntry[] = [];
  const misses: { request: JournalEntry; differences: Difference[] }[] = [];
  const differences = differencesFrom(pattern, schema);
  for (const request of entries) {
    budget.check(VERIFY_WORK);
    const found = differences(request);
    if (found.length === 0) matched.push(request);
    else misses.push({ request, differences: found });
  }
  // Fewest differences first; among equals the newest (the order they came in).
  const nearMisses = misses.map((miss, i) => ({ miss, i }))
    .sort((a, b) => a.miss.differences.length - b.miss.differences.length || a.i - b.i)
    .slice(0, NEAR_MISSES)
    .map(({ miss }) => miss);
  return { matched, nearMisses };
}

import { HttpError } from '../../http/errors.js';
import type { CpuBudget } from '../../gates/cpu-budget.js';
import { checkLike, filterLike, type LikeTask } from './like.js';

/** A collection's item: a JSON object with an `id`. */
export type Item = Record<string, unknown>;
export type Query = Record<string, string | string[]>;

/** What a list answers: the items, and the headers json-server 0.17 adds for a slice or a page. */
export type ListAnswer = { items: Item[]; headers: string[] };

/**
 * Most filter values in one query (`a=1&a=2&b_like=x` is three): each is tried on every item, and a
 * 16 KiB URL could otherwise ask for thousands of passes over a 10,000-item collection.
 */
export const MAX_FILTERS = 64;
/** Most `_like` values in one query: a pattern is dearer per item than a comparison (tens of microseconds). */
export const MAX_LIKES = 4;

// Keys json-server reads itself rather than as field filters (`_per_page` is v1's `_limit` for pages).
const RESERVED = new Set(['q', '_start', '_end', '_limit', '_page', '_per_page', '_sort', '_order', '_embed',
  '_expand', 'callback', '_']);
const OPERATOR = /(_lte|_gte|_ne)$/;

/**
 * json-server 0.17's list query (its README, "Filter" to "Full-text search"): `q`, then field filters
 * (a repeated key is any of; `_ne` all of), then `_sort`/`_order`, then a page or a slice. `url` is the
 * request's path and query, for the `Link` header. `_like` filters run last, on a worker thread,
 * under `budget` (like.ts).
 */
export async function queryList(all: Item[], query: Query, url: string, budget: CpuBudget): Promise<ListAnswer> {
  let items = all;
  const q = first(query.q);
  if (q) {
    const needle = q.toLowerCase();
    items = items.filter((item) => Object.values(item).some((value) => deepHas(value, needle)));
  }
  const filters = Object.keys(query).filter((key) => !RESERVED.has(key));
  const values = filters.reduce((sum, key) => sum + ([] as string[]).concat(query[key]!).length, 0);
  if (values > MAX_FILTERS) throw new HttpError(400, `a query may hold at most ${MAX_FILTERS} filter values`);
  const likes = filters.filter((key) => key.endsWith('_like'));
  if (likes.reduce((sum, key) => sum + ([] as string[]).concat(query[key]!).length, 0) > MAX_LIKES) {
    throw new HttpError(400, `a query may hold at most ${MAX_LIKES} _like patterns`, likes[0]);
  }
  const valuesOf = (key: string) => ([] as string[]).concat(query[key]!);
  for (const key of likes) for (const pattern of valuesOf(key)) checkLike(key, pattern);
  for (const key of filters) {
    // A plain key no item has is dropped, as json-server 0.17 drops it (a cache-buster `?v=2` lists all).
    if (likes.includes(key) || (!OPERATOR.test(key) && !all.some((item) => hasPath(item, key.split('.'))))) continue;
    items = items.filter(filterOf(key, valuesOf(key)));
  }
  const tasks = likes.map((key): LikeTask => {
    const path = key.slice(0, -'_like'.length).split('.');
    const texts = items.map((item) => {
      const found = at(item, path);
      return found === undefined || found === null ? null : String(found);
    });
    return { key, patterns: valuesOf(key), texts };
  });
  items = await filterLike(items, tasks, budget);
  const sort = first(query._sort);
  if (sort) items = sortBy(items, sort.split(','), (first(query._order) ?? '').toLowerCase().split(','));
  const headers: string[] = [];
  const page = first(query._page);
  const end = first(query._end);
  const limit = first(query._per_page) ?? first(query._limit);
  if (page === undefined && end === undefined && first(query._limit) === undefined) return { items, headers };
  headers.push('X-Total-Count', String(items.length));
  const start = toInt(first(query._start)) ?? 0;
  if (page !== undefined) {
    const current = Math.max(toInt(page) ?? 1, 1);
    const size = toInt(limit) || 10;
    const links = pageLinks(items.length, current, size, url);
    if (links) headers.push('Link', links);
    return { items: items.slice((current - 1) * size, current * size), headers };
  }
  if (end !== undefined) return { items: items.slice(start, toInt(end) ?? items.length), headers };
  return { items: items.slice(start, start + (toInt(limit) ?? 0)), headers };
}

/** One filter key but `_like`, e.g. `title`, `author.name`, `views_gte`, with its values. */
function filterOf(key: string, values: string[]): (item: Item) => boolean {
  const operator = OPERATOR.exec(key)?.[1];
  const path = key.slice(0, key.length - (operator?.length ?? 0)).split('.');
  const test = (value: string): ((found: unknown) => boolean) => {
    if (operator === '_gte') return (found) => compare(value, found) <= 0;
    if (operator === '_lte') return (found) => compare(value, found) >= 0;
    if (operator === '_ne') return (found) => value !== String(found);
    return (found) => value === String(found);
  };
  const tests = values.map(test);
  return (item) => {
    const found = at(item, path);
    if (found === undefined || found === null) return false;
    return operator === '_ne' ? tests.every((t) => t(found)) : tests.some((t) => t(found));
  };
}

/** As JavaScript compares a query's text with a field (json-server does): numerically when the field is a number. */
function compare(value: string, found: unknown): number {
  const left = typeof found === 'number' ? Number(value) : value;
  const right = found as number | string;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** json-server's full-text search: any string or number, however deep, contains the text, ignoring case. */
function deepHas(value: unknown, needle: string): boolean {
  if (value === null || value === undefined) return false;
  if (Array.isArray(value)) return value.some((v) => deepHas(v, needle));
  if (typeof value === 'object') return Object.values(value).some((v) => deepHas(v, needle));
  return String(value).toLowerCase().includes(needle);
}

/** Stable sort on several fields (lodash's orderBy, as json-server uses): absent values last, `desc` per field. */
function sortBy(items: Item[], fields: string[], orders: string[]): Item[] {
  const paths = fields.map((field) => field.split('.'));
  return [...items].sort((a, b) => {
    for (const [i, path] of paths.entries()) {
      const x = at(a, path);
      const y = at(b, path);
      const order = orders[i] === 'desc' ? -1 : 1;
      if (x === y) continue;
      if (x === undefined || x === null) return 1;
      if (y === undefined || y === null) return -1;
      if ((x as number) < (y as number)) return -order;
      if ((x as number) > (y as number)) return order;
    }
    return 0;
  });
}

/** The `Link` header of a page: first, prev, next, last, as json-server 0.17 gives them. */
function pageLinks(total: number, page: number, size: number, url: string): string | undefined {
  const start = (page - 1) * size;
  if (start >= total) return undefined;
  const last = Math.ceil(total / size);
  const link = (n: number, rel: string) => `<${withPage(url, n)}>; rel="${rel}"`;
  const links: string[] = [];
  const paged = size < total;
  if (paged) links.push(link(1, 'first'));
  if (page > 1) links.push(link(page - 1, 'prev'));
  if (page * size < total) links.push(link(page + 1, 'next'));
  if (paged) links.push(link(last, 'last'));
  return links.length ? links.join(', ') : undefined;
}

function withPage(url: string, page: number): string {
  return url.replace(/([?&]_page=)[^&]*/, `$1${page}`);
}

/** A dotted path's value (`author.name`); own keys only, so `__proto__` or `constructor` find nothing. */
function at(item: unknown, path: string[]): unknown {
  let value = item;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Whether the dotted path is there (its value may be null), own keys only. */
function hasPath(item: Item, path: string[]): boolean {
  const parent = at(item, path.slice(0, -1));
  return parent !== null && typeof parent === 'object' && Object.hasOwn(parent, path.at(-1)!);
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function toInt(value: string | undefined): number | undefined {
  const n = value === undefined ? NaN : parseInt(value, 10);
  return Number.isNaN(n) ? undefined : n;
}

import { randomBytes } from 'node:crypto';
import { HttpError } from '../../http/errors.js';
import type { CpuBudget } from '../../gates/cpu-budget.js';
import { isJsonObject } from '../../http/json-body.js';
import { queryList, type Item, type Query } from './query.js';
import type { Change, State } from './state.js';
import { checkId } from '../record/validate-collection.js';

/** An answer of a collection route: status, JSON value and extra headers. */
export type CollectionAnswer = { status: number; value: unknown; headers?: string[] };

export type CollectionRequest = {
  method: string;
  /** The item's id from the path; absent for the list itself. */
  id?: string;
  query: Query;
  /** The parsed JSON body of a write. */
  body?: unknown;
  /** The request's path and query, for a page's `Link` header. */
  url: string;
};

// nanoid's url-safe alphabet, 64 characters: a byte's low 6 bits pick one evenly.
const NANOID_ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';

// json-server answers a missing item with 404 and an empty object.
const MISSING: CollectionAnswer = { status: 404, value: {} };

/**
 * What json-server 0.17 answers a read (GET, HEAD) with; a list's query runs its `_like` filters
 * under `budget`, off this thread.
 */
export async function answerRead(
  state: State,
  request: CollectionRequest,
  budget: CpuBudget,
): Promise<CollectionAnswer> {
  if (!Array.isArray(state) || request.id !== undefined) return answerCollection(state, request).answer;
  const list = await queryList(state, request.query, request.url, budget);
  return { status: 200, value: list.items, headers: list.headers };
}

/** What json-server 0.17 does for a write `request` on `state` (a read answers as answerRead's but unfiltered). */
export function answerCollection(state: State, request: CollectionRequest): Change<CollectionAnswer> {
  return Array.isArray(state) ? answerList(state, request) : answerSingle(state, request);
}

function answerList(items: Item[], request: CollectionRequest): Change<CollectionAnswer> {
  const { method, id } = request;
  if (id === undefined) {
    // Reads of the list go through answerRead, for its query.
    if (method === 'GET' || method === 'HEAD') return { answer: { status: 200, value: items } };
    if (method !== 'POST') return notAllowed(method, 'GET, HEAD, POST');
    const body = objectBody(request.body);
    let item: Item;
    if (body.id === undefined || body.id === null) item = { ...body, id: nextId(items) };
    else {
      const given = checkId(body.id, 'id');
      if (items.some((other) => sameId(other.id, given))) {
        throw new HttpError(409, `an item with id ${JSON.stringify(given)} exists already`, 'id');
      }
      item = body;
    }
    // Where the new item is, as json-server 0.17 says it (its path; buildHead exposes it to scripts).
    const location = `${request.url.split('?')[0]}/${encodeURIComponent(String(item.id))}`;
    return { answer: { status: 201, value: item, headers: ['Location', location] }, state: [...items, item] };
  }
  const index = items.findIndex((item) => sameId(item.id, id));
  if (method === 'GET' || method === 'HEAD') {
    return { answer: index === -1 ? MISSING : { status: 200, value: items[index] } };
  }
  if (method !== 'PUT' && method !== 'PATCH' && method !== 'DELETE') {
    return notAllowed(method, 'GET, HEAD, PUT, PATCH, DELETE');
  }
  if (index === -1) return { answer: MISSING };
  const next = [...items];
  if (method === 'DELETE') {
    next.splice(index, 1);
    return { answer: { status: 200, value: {} }, state: next };
  }
  const body = objectBody(request.body);
  // The id stays the item's own whatever the body says, as json-server keeps it.
  const { id: kept } = items[index]!;
  const item = method === 'PUT' ? { ...body, id: kept } : { ...items[index], ...body, id: kept };
  next[index] = item;
  return { answer: { status: 200, value: item }, state: next };
}

function answerSingle(value: Item, request: CollectionRequest): Change<CollectionAnswer> {
  const { method } = request;
  if (request.id !== undefined) return { answer: MISSING };
  if (method === 'GET' || method === 'HEAD') return { answer: { status: 200, value } };
  if (method !== 'PUT' && method !== 'PATCH' && method !== 'POST') {
    return notAllowed(method, 'GET, HEAD, PUT, PATCH, POST');
  }
  const body = objectBody(request.body);
  const next = method === 'PATCH' ? { ...value, ...body } : body;
  // A POST names the resource itself as where it is, as json-server 0.17 does.
  const headers = method === 'POST' ? { headers: ['Location', request.url.split('?')[0]!] } : {};
  return { answer: { status: method === 'POST' ? 201 : 200, value: next, ...headers }, state: next };
}

/**
 * json-server's next id: one past the largest number, or a fresh text id when the ids are text.
 * Items without an id are passed over; none with one is 1 (json-server 0.17 fails there).
 */
function nextId(items: Item[]): number | string {
  let max: unknown;
  for (const { id } of items) {
    if (id !== undefined && id !== null && (max === undefined || (id as number) > (max as number))) max = id;
  }
  if (max === undefined) return 1;
  if (typeof max === 'number' && Number.isFinite(max)) return Math.floor(max) + 1;
  // json-server 0.17 draws nanoid(7): 7 characters of A-Z a-z 0-9 _ -, from crypto; unique against the ids there are.
  for (;;) {
    const id = [...randomBytes(7)].map((byte) => NANOID_ALPHABET[byte & 63]).join('');
    if (!items.some((item) => sameId(item.id, id))) return id;
  }
}

/** Ids compare as text, as json-server compares `/posts/1` with `"id": 1`. */
export function sameId(a: unknown, b: unknown): boolean {
  return a !== undefined && a !== null && String(a) === String(b);
}

function objectBody(body: unknown): Item {
  if (body === undefined) throw new HttpError(400, 'the request has no body; send a JSON object');
  if (!isJsonObject(body)) throw new HttpError(400, 'request body must be a JSON object');
  return body;
}

function notAllowed(method: string, allow: string): Change<CollectionAnswer> {
  const value = { success: false, message: `${method} is not allowed here; allowed: ${allow}` };
  return { answer: { status: 405, value, headers: ['Allow', allow] } };
}

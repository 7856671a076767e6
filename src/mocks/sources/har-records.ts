import { isJsonObject } from '../../http/json-body.js';
import {
  queryKey,
  queryOf,
  recordedContent,
  recordedHeaders,
  recordingShape,
  recordingSlug,
  unrecordable,
  withResponse,
  type RecordedResponse,
  type RecordShape,
} from '../record/recording.js';

/**
 * An HTTP Archive (HAR 1.2: what a browser's or a proxy's "save all as HAR" writes) as recordings, by
 * the rules `--proxy --record` follows (../record/recording.ts; docs/mock-api.md, "From a HAR file").
 */

/** More entries than this is refused whole: the file is also capped (32 MB) by the Files gate. */
export const MAX_HAR_ENTRIES = 10_000;

export class HarError extends Error {}

export type HarOptions = {
  /** `host[:port]` to keep; the most common one among the HTTP entries when absent. */
  host?: string;
  recordCookies: boolean;
};

export type HarRecords = {
  records: RecordShape[];
  host: string;
  /** Entries for other hosts. */
  otherHosts: number;
  /** Why entries of the host were left out, and how many for each reason. */
  skipped: Map<string, number>;
  /** Answers replaced by a different later one for the same method, path and query (the last one wins). */
  replaced: number;
};

type Entry = { method: string; url: URL; status: number; headers: Record<string, string[]>; content: Content };
type Content = { text?: string; encoding?: string; size?: number; mimeType?: string };
type Group = {
  method: string;
  path: string;
  origin: string;
  responses: RecordedResponse[];
  /** Each query's answer as text, to tell a changed answer from the same one seen again. */
  answers: Map<string, string>;
};

/** True for a document shaped as a HAR: `{ log: { entries: [...] } }`. */
export function isHar(value: unknown): boolean {
  return isJsonObject(value) && isJsonObject(value.log) && Array.isArray(value.log.entries);
}

/** The recordings a HAR holds; a HarError when it is not one, or is too large. */
export function harRecords(har: unknown, options: HarOptions): HarRecords {
  if (!isHar(har)) throw new HarError('is not a HAR file: it has no log.entries list');
  const list = (har as { log: { entries: unknown[] } }).log.entries;
  if (list.length > MAX_HAR_ENTRIES) {
    throw new HarError(`holds ${list.length} entries, more than ${MAX_HAR_ENTRIES}: split it`);
  }
  const skipped = new Map<string, number>();
  const skip = (reason: string) => skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
  const entries: Entry[] = [];
  for (const [index, value] of list.entries()) {
    const entry = entryOf(value, index);
    if (typeof entry === 'string') skip(entry);
    else entries.push(entry);
  }
  const host = options.host ?? commonHost(entries);
  const groups = new Map<string, Group>();
  let otherHosts = 0;
  let replaced = 0;
  for (const entry of entries) {
    if (entry.url.host !== host) {
      otherHosts++;
      continue;
    }
    const response = responseOf(entry, options.recordCookies);
    if (typeof response === 'string') {
      skip(response);
      continue;
    }
    const path = entry.url.pathname.slice(1).replace(/\/$/, '');
    const key = `${entry.method} ${path}`;
    const group = groups.get(key) ?? {
      ...{ method: entry.method, path, origin: entry.url.origin },
      ...{ responses: [], answers: new Map<string, string>() },
    };
    const responses = withResponse(group.responses, response);
    if (typeof responses === 'string') {
      skip(responses);
      continue;
    }
    const query = queryKey(response.when.query);
    const answer = answerText(response);
    const before = group.answers.get(query);
    if (before !== undefined && before !== answer) replaced++;
    group.answers.set(query, answer);
    group.responses = responses;
    groups.set(key, group);
  }
  return { records: recordsOf(groups), host: host ?? '', otherHosts, skipped, replaced };
}

/** The entry's parts a recording needs; a malformed entry is a HarError, one not to record a reason. */
function entryOf(value: unknown, index: number): Entry | string {
  const where = `log.entries[${index}]`;
  const request = isJsonObject(value) ? value.request : undefined;
  const response = isJsonObject(value) ? value.response : undefined;
  if (!isJsonObject(request) || typeof request.method !== 'string' || typeof request.url !== 'string') {
    throw new HarError(`${where}.request has no method and url`);
  }
  if (!isJsonObject(response) || typeof response.status !== 'number' || !Array.isArray(response.headers)) {
    throw new HarError(`${where}.response has no status and headers`);
  }
  const content = response.content ?? {};
  if (!isJsonObject(content)) throw new HarError(`${where}.response.content is not an object`);
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new HarError(`${where}.request.url is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `not an HTTP request (${url.protocol} URL)`;
  if (response.status === 101 || (value as { _resourceType?: unknown })._resourceType === 'websocket') {
    return 'a WebSocket';
  }
  // No prototype: a header named `__proto__` is a header like any other.
  const headers: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const header of response.headers) {
    if (!isJsonObject(header) || typeof header.name !== 'string' || typeof header.value !== 'string') {
      throw new HarError(`${where}.response.headers holds a header without a name and a value`);
    }
    // HTTP/2's pseudo-headers (`:status`) are not headers an answer can carry.
    if (header.name.startsWith(':')) continue;
    (headers[header.name.toLowerCase()] ??= []).push(header.value);
  }
  return { method: request.method.toUpperCase(), url, status: response.status, headers, content: content as Content };
}

/** The host most entries went to (the first of those met first on a tie). */
function commonHost(entries: Entry[]): string | undefined {
  const counts = new Map<string, number>();
  for (const { url } of entries) counts.set(url.host, (counts.get(url.host) ?? 0) + 1);
  let best: string | undefined;
  for (const [host, count] of counts) if (best === undefined || count > counts.get(best)!) best = host;
  return best;
}

/** The entry as a recorded response, or why it cannot be one. */
function responseOf(entry: Entry, recordCookies: boolean): RecordedResponse | string {
  const { status, content } = entry;
  const path = entry.url.pathname.slice(1).replace(/\/$/, '');
  const refused = unrecordable(entry.method, path);
  if (refused) return refused;
  if (status === 0) return 'no answer was received (status 0: blocked, failed or cancelled)';
  if (status === 304) return 'a 304 (not modified) has no body to replay';
  if (!Number.isInteger(status) || status < 200 || status > 599) return 'a status outside 200 to 599';
  let bytes: Buffer;
  if (typeof content.text !== 'string') {
    if (typeof content.size === 'number' && content.size > 0) return 'its body is not in the HAR';
    bytes = Buffer.alloc(0);
  } else if (content.encoding === 'base64') {
    const base64 = content.text.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return 'its base64 body does not decode';
    bytes = Buffer.from(base64, 'base64');
  } else if (content.encoding === undefined || content.encoding === '') {
    bytes = Buffer.from(content.text, 'utf8');
  } else {
    return 'its body has an unknown encoding';
  }
  const type = entry.headers['content-type']?.[0] ?? content.mimeType ?? '';
  const answer = recordedContent(bytes, typeof type === 'string' ? type : '');
  const headers = recordedHeaders(entry.headers, recordCookies);
  return { when: { query: queryOf(entry.url.search) }, statusCode: status, ...answer, headers };
}

/** A response without its `when`, as text: two answers alike give the same text. */
function answerText({ when: _when, ...answer }: RecordedResponse): string {
  return JSON.stringify(answer);
}

/**
 * One recording per method and path, named as the recorder names them. Its answers are told apart by
 * query only when the query changes the answer: answers all alike make one that answers any query.
 */
function recordsOf(groups: Map<string, Group>): RecordShape[] {
  const taken = new Set<string>();
  const records: RecordShape[] = [];
  for (const { method, path, origin, responses } of groups.values()) {
    const slug = recordingSlug(method, path);
    let name = slug;
    for (let i = 2; taken.has(name); i++) name = `${slug}-${i}`;
    taken.add(name);
    const answers = new Set(responses.map(answerText));
    const kept = answers.size === 1 ? [{ ...responses[0]!, when: { query: {} } }] : responses;
    records.push(recordingShape(name, method, path, origin, kept));
  }
  return records;
}

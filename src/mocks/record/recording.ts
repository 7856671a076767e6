import { endToEnd } from '../../http/hop-by-hop.js';
import { MAX_RESPONSES } from './validate-responses.js';

/**
 * An answer seen on the wire as an endpoint record: the rules `--proxy --record` and `mock import
 * FILE.har` share (docs/mock-api.md, "Recording"), so both make the same record of the same answer.
 */

/** The header a recorded endpoint carries: it marks the endpoint as a recording and names where it came from. */
export const RECORDED_HEADER = 'x-snippetkit-recorded';

/** A query as `when.query` holds it: each key once, a repeated key as the list of its values in order. */
export type QueryRecord = Record<string, string | string[]>;

/** An endpoint record as the API takes it and `mock export` writes it (`data` parsed, not serialized). */
export type RecordShape = Record<string, unknown> & { name: string };

/** One recorded answer as a response of a recording. */
export type RecordedResponse = {
  when: { query: QueryRecord };
  statusCode: number;
  headers: Record<string, string>;
} & RecordedContent;

/** A recorded body as a record holds it. */
export type RecordedContent = { data: unknown } | { body: string } | { base64Body: string };

const PLAIN_PATH = /^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/;

// Not worth keeping: the date is stale when replayed; length and encoding describe the bytes as they travelled.
const DROPPED = ['content-length', 'content-encoding', 'date'];

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

/** Why an answer to this method and path (no leading or trailing slash) cannot be recorded, or undefined. */
export function unrecordable(method: string, path: string): string | undefined {
  // `*` and `:x` would be a wildcard or a parameter, answering far more than what was recorded.
  if (!PLAIN_PATH.test(path)) return 'only paths of letters, digits and . _ ~ - segments are recorded';
  if (method === 'HEAD') return 'a HEAD answer has no body to replay (a recorded GET answers HEAD)';
  return undefined;
}

/**
 * The headers worth replaying (lower-case names): no hop-by-hop ones, length, encoding, date, and no
 * Set-Cookie unless `recordCookies`. A record holds one value per header: of several, the first is kept.
 */
export function recordedHeaders(
  headers: Record<string, string | string[] | undefined>,
  recordCookies: boolean,
): Record<string, string> {
  const drop = recordCookies ? DROPPED : [...DROPPED, 'set-cookie'];
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(endToEnd(headers, drop))) {
    out[name] = Array.isArray(value) ? String(value[0]) : String(value);
  }
  return out;
}

/**
 * `data` when the answer is JSON and replays as the same value, else `body` when it is text, else
 * `base64Body`: what replays the same bytes, in the form a reader can best read and edit.
 */
export function recordedContent(bytes: Buffer, contentType: string): RecordedContent {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { base64Body: bytes.toString('base64') };
  }
  // NUL is valid UTF-8 but no text format's: an image can happen to decode.
  if (text.includes('\0')) return { base64Body: bytes.toString('base64') };
  if (/[/+]json\b/i.test(contentType)) {
    try {
      const data = JSON.parse(text) as unknown;
      // Served as JSON.stringify(data): kept as data only when that loses nothing but spacing (no 1.0,
      // no number past double precision, no \u escape), else as the text it is.
      if (JSON.stringify(data) === withoutSpacing(text)) return { data };
    } catch {
      // Labelled JSON but not JSON: kept as the text it is.
    }
  }
  return { body: text };
}

/** JSON text without the whitespace between tokens (strings kept as they are). */
function withoutSpacing(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += json[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') {
      out += c;
    }
  }
  return out;
}

/**
 * `responses` with `response` added, replacing one recorded for the same query, most query keys first
 * (first-match: the query-less recording is the last resort); a reason when the recording is full.
 */
export function withResponse<R extends { when?: { query?: QueryRecord } }>(
  responses: readonly R[],
  response: R,
): R[] | string {
  const key = queryKey(response.when?.query ?? {});
  const others = responses.filter((r) => !r.when?.query || queryKey(r.when.query) !== key);
  if (others.length >= MAX_RESPONSES) return `it has ${MAX_RESPONSES} recorded queries already`;
  const all = [...others, response];
  return all.sort((a, b) => Object.keys(b.when?.query ?? {}).length - Object.keys(a.when?.query ?? {}).length);
}

/** The recording of a method and path: its responses, and a 404 for a query none of them was recorded with. */
export function recordingShape(
  name: string,
  method: string,
  path: string,
  origin: string,
  responses: unknown[],
): RecordShape {
  const message = `no recording answers ${method} /endpoint/${path} with this query`;
  return {
    name,
    path,
    methods: [method],
    statusCode: 404,
    data: { success: false, message },
    headers: { [RECORDED_HEADER]: origin },
    responses,
  };
}

/** `get-users-1` from GET users/1 (a caller adds `-2`, `-3`… when that name is taken). */
export function recordingSlug(method: string, path: string): string {
  return `${method}-${path}`
    .toLowerCase()
    .replace(/[^a-z0-9._~]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120);
}

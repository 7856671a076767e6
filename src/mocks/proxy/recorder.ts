import type { IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { clientError } from '../../http/errors.js';
import type { Logger } from '../../server/logger.js';
import {
  RECORDED_HEADER,
  recordedContent,
  type RecordedContent,
  recordedHeaders,
  recordingShape,
  recordingSlug,
  unrecordable,
  withResponse,
  type QueryRecord,
  type RecordShape,
} from '../record/recording.js';
import type { MockInput, StoredMock } from '../record/record.js';
import type { MockStore } from '../store/store.js';
import { parseMockInput } from '../record/validate.js';

/** One answer as it came back from upstream, body whole (at most the recording limit). */
export type Exchange = {
  method: string;
  /** After /endpoint/, undecoded, no query. */
  path: string;
  query: QueryRecord;
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
};

export type RecorderOptions = {
  store: MockStore;
  target: string;
  recordCookies: boolean;
  /** The most bytes a recorded body may hold, decoded too: a small gzip body can inflate a thousandfold. */
  maxRecordBytes: number;
  logger: Logger;
  /** Where a recording goes: the store by default; a record file with --dir (see ../../cli/serve-mocks/record-file.ts). */
  save?: (shape: RecordShape, input: MockInput) => Promise<unknown>;
};

export type Recorder = (exchange: Exchange) => Promise<void>;

const MAX_WAITING = 100;

/** Saves answers as endpoints: one per method and path, one response per distinct query (`when.query`). */
export function createRecorder(options: RecorderOptions): Recorder {
  const { store, logger } = options;
  const save = options.save ?? ((_shape, input) => store.put(input));
  // One at a time: two answers for the same path must not both read the old record and each drop the other.
  let chain = Promise.resolve();
  // Each waiting answer holds its body: a slow disk must not let them pile up without end.
  let waiting = 0;
  return (exchange) => {
    const what = `${exchange.method} /endpoint/${exchange.path}`;
    if (waiting >= MAX_WAITING) {
      logger.warn(`not recorded: ${what}: ${MAX_WAITING} answers are waiting to be saved already`);
      return Promise.resolve();
    }
    waiting++;
    const done = chain.then(async () => {
      try {
        const shape = recordOf(exchange, options);
        if (typeof shape === 'string') return logger.warn(`not recorded: ${what}: ${shape}`);
        const input = parseMockInput(shape, { maxDelay: 0 });
        await save(shape, input);
        logger.info(`recorded ${what} as endpoint '${shape.name}'`);
      } catch (err) {
        // A refusal (a full store, a name in use) or a file that cannot be written: proxying goes on.
        if (clientError(err)) logger.warn(`not recorded: ${what}: ${(err as Error).message}`);
        else logger.error(`not recorded: ${what}: ${(err as Error).message}`);
      }
    });
    chain = done.catch(() => undefined).finally(() => waiting--);
    // A stop right after the answer still saves it.
    store.hold(chain);
    return chain;
  };
}

/** The endpoint record with this answer added, or why it cannot be recorded. */
function recordOf(exchange: Exchange, options: RecorderOptions): RecordShape | string {
  const { method, query } = exchange;
  const path = exchange.path.replace(/\/$/, '');
  const refused = unrecordable(method, path);
  if (refused) return refused;
  const content = contentOf(exchange, options.maxRecordBytes);
  if (typeof content === 'string') return content;
  const headers = recordedHeaders(exchange.headers, options.recordCookies);
  const response = { when: { query }, statusCode: exchange.status, ...content, headers };
  const existing = recordingAt(options.store, method, path);
  const responses = withResponse<object>((existing?.responses ?? []).map(shapeOfResponse), response);
  if (typeof responses === 'string') return responses;
  const name = existing?.name ?? freeName(options.store, method, path);
  return recordingShape(name, method, path, options.target, responses);
}

/** The body decoded as it travelled, then as a record holds it; a reason when it cannot be. */
function contentOf(exchange: Exchange, maxBytes: number): RecordedContent | string {
  const encoding = String(exchange.headers['content-encoding'] ?? 'identity').toLowerCase();
  let bytes: Buffer;
  try {
    bytes = decode(exchange.body, encoding, maxBytes);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return `its ${encoding} body decodes to over ${maxBytes} bytes`;
    return `its ${encoding} body does not decode`;
  }
  return recordedContent(bytes, String(exchange.headers['content-type'] ?? ''));
}

function decode(body: Buffer, encoding: string, maxOutputLength: number): Buffer {
  if (encoding === 'identity' || body.length === 0) return body;
  if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body, { maxOutputLength });
  if (encoding === 'deflate') return inflateSync(body, { maxOutputLength });
  if (encoding === 'br') return brotliDecompressSync(body, { maxOutputLength });
  throw new Error(`unknown content-encoding ${encoding}`);
}

/** The recording already made for this method and path, if that is what the route finds. */
function recordingAt(store: MockStore, method: string, path: string): StoredMock | undefined {
  const found = store.route(method, path);
  if (!found || 'allow' in found) return undefined;
  const { record } = found.value;
  const same = record.path === path && record.methods?.length === 1 && record.methods[0] === method;
  return same && record.headers?.[RECORDED_HEADER] !== undefined ? record : undefined;
}

/** The slug of method and path; `-2`, `-3`… after it when that name is taken. */
function freeName(store: MockStore, method: string, path: string): string {
  const slug = recordingSlug(method, path);
  if (!store.get(slug)) return slug;
  for (let i = 2; ; i++) if (!store.get(`${slug}-${i}`)) return `${slug}-${i}`;
}

/** A stored response back in the shape the API takes. */
function shapeOfResponse(response: NonNullable<StoredMock['responses']>[number]) {
  const { json, body, ...rest } = response;
  return { ...rest, ...(json !== undefined ? { data: JSON.parse(json) as unknown } : { body }) };
}

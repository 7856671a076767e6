import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientError, HttpError } from '../../http/errors.js';
import { hasBody } from '../../http/read-body.js';
import { parseForm } from '../../http/form.js';
import type { Logger } from '../../server/logger.js';
import { findJsonError, lineColumn } from '../../shared/json-check.js';
import { buildHead } from './answer-head.js';
import { answerCollection, answerRead, type CollectionAnswer } from '../collections/ops.js';
import { CpuBudget, DEFAULT_MAX_REQUEST_CPU } from '../../gates/cpu-budget.js';
import type { Collections } from '../collections/state.js';
import type { StoredMock } from '../record/record.js';
import { decoded, parseQuery } from './request-input.js';
import { draw, later } from './delay.js';
import { LOG_BODY_BYTES } from '../log/request-log.js';
import { isJsonObject } from '../../http/json-body.js';
import { foreignKey } from '../collections/relations.js';
import { removeDependents, wholeDb, withRelated, type Database } from './collection-relations.js';
import { jsonpCallback, jsonpScript } from './jsonp.js';

export type CollectionServerOptions = {
  collections: Collections;
  cors: boolean;
  maxBody: number;
  logger: Logger;
  /** The CPU budget of one request's query (its `_like` filters), in milliseconds (--max-request-cpu). */
  maxRequestCpu?: number;
  /** The collections that nested routes, `_embed`, `_expand`, DELETE's dependents and `/db` see; none without it. */
  database?: Database;
};

type Log = (status: number) => void;
/** What an answer takes of the record: its headers and delay, and its name for the answer's header (none for /db). */
type Answering = { name?: string; headers?: StoredMock['headers']; delay?: StoredMock['delay'] };
/** Logs the request with the body as the log keeps it; returns what logs the status sent. */
export type LogFor = (body: string, truncated: boolean) => Log;

/** The path's segments after a collection's own, undecoded: the item (`posts/1`), then a nested collection (`posts/1/comments`). */
export type CollectionPath = { id?: string; nested?: string };

export type ServeCollection = {
  /** Answers a request to a collection endpoint. */
  serve(req: IncomingMessage, res: ServerResponse, record: StoredMock, path: CollectionPath, logFor: LogFor): void;
  /** Answers `GET /db` (json-server's whole database) when there are collections; false when it does not, to be answered otherwise. */
  db(req: IncomingMessage, res: ServerResponse, path: string): boolean;
};

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * json-server's routes over a collection's live data (docs/mock-api.md, "Collections"). A write's
 * body is read whole up to --max-body (the log keeps its first 64 KiB, as for any endpoint).
 */
export function createCollectionServer(options: CollectionServerOptions): ServeCollection {
  const { collections, cors, maxBody, logger, maxRequestCpu = DEFAULT_MAX_REQUEST_CPU } = options;
  const database: Database = options.database ?? (() => new Map());
  // The record's headers and delay apply to every answer, as to any endpoint's.
  const answer = (req: IncomingMessage, res: ServerResponse, record: Answering, log: Log, got: CollectionAnswer, callback?: string) => {
    log(got.status);
    const json = JSON.stringify(got.value);
    // JSONP (?callback=) is a script, as json-server's res.jsonp sends it: see docs/mock-api.md on the sandbox.
    const body = Buffer.from(callback === undefined ? json : jsonpScript(callback, json));
    const type = callback === undefined ? 'application/json; charset=utf-8' : 'text/javascript; charset=utf-8';
    // The answer's own headers (X-Total-Count, Link, Retry-After) are exposed to scripts as the record's
    // are, in the one Access-Control-Expose-Headers line buildHead makes; the record's win by name.
    const custom: Record<string, string> = {};
    const extra = got.headers ?? [];
    for (let i = 0; i < extra.length; i += 2) custom[extra[i]!] = extra[i + 1]!;
    const given = new Set(Object.keys(record.headers ?? {}).map((name) => name.toLowerCase()));
    for (const name of Object.keys(custom)) if (given.has(name.toLowerCase())) delete custom[name];
    Object.assign(custom, record.headers);
    const head = buildHead(got.status, custom, body.length, type, cors, record.name);
    later(res, record.delay === undefined ? 0 : draw(record.delay), () => {
      if (res.destroyed) return;
      res.writeHead(got.status, head);
      res.end(req.method === 'HEAD' ? undefined : body);
    });
  };
  const failed = (req: IncomingMessage, res: ServerResponse, record: Answering, log: Log, err: unknown) => {
    const ours = clientError(err);
    if (ours) {
      const value = { success: false, message: ours.message, ...(ours.field && { field: ours.field }) };
      // The store's 503 says when to try again, as the API's do.
      const headers = ours.retryAfter !== undefined ? { headers: ['Retry-After', String(ours.retryAfter)] } : {};
      return answer(req, res, record, log, { status: ours.status, value, ...headers });
    }
    logger.error(`${req.method} ${req.url}: ${(err as Error).stack ?? String(err)}`);
    answer(req, res, record, log, { status: 500, value: { success: false, message: 'internal server error' } });
  };

  const serve: ServeCollection['serve'] = (req, res, own, path, logFor) => {
    const url = req.url ?? '';
    const mark = url.indexOf('?');
    const query = mark === -1 ? {} : parseQuery(url.slice(mark + 1));
    const method = req.method ?? 'GET';
    const reading = method === 'GET' || method === 'HEAD';
    const run = (text: string, tooLarge: boolean) => {
      const log = logFor(text.slice(0, LOG_BODY_BYTES), text.length > LOG_BODY_BYTES || tooLarge);
      let record = own;
      try {
        if (tooLarge) throw new HttpError(413, `request body too large (the limit is ${maxBody} bytes)`);
        const callback = reading ? jsonpCallback(query.callback) : undefined;
        let id = path.id === undefined ? undefined : decoded(path.id);
        let body = text === '' ? undefined : isForm(req.headers['content-type']) ? parseForm(text) : parseJson(text);
        if (path.nested !== undefined) {
          // json-server 0.17's nested routes: GET /posts/1/comments is GET /comments?postId=1, and a POST
          // there gets `postId: "1"` (the path's text, as json-server sets it).
          const nested = database().get(decoded(path.nested));
          if (!nested || (!reading && method !== 'POST')) return answer(req, res, record, log, { status: 404, value: {} });
          if (reading) query[foreignKey(own.name)] = id!;
          else if (isJsonObject(body)) body = { ...body, [foreignKey(own.name)]: id! };
          [record, id] = [nested, undefined];
        }
        const request = { method, id, query, url };
        const done = reading
          ? collections
              .read(record)
              .then((state) => answerRead(state, request, new CpuBudget(maxRequestCpu)))
              .then((got) => withRelated(got, record.name, query, collections, database))
          : collections.update(record, (state) => answerCollection(state, { ...request, body })).then(async (got) => {
              if (method === 'DELETE' && got.status === 200) await removeDependents(collections, database);
              return got;
            });
        const target = record;
        done.then(
          (got) => answer(req, res, target, log, got, callback),
          (err: unknown) => failed(req, res, target, log, err),
        );
      } catch (err) {
        failed(req, res, record, log, err);
      }
    };
    if (!hasBody(req)) return run('', false);
    readBounded(req, maxBody, (raw, tooLarge) => {
      let text: string;
      try {
        text = decoder.decode(raw);
      } catch {
        text = raw.toString('utf8');
        const log = logFor(text.slice(0, LOG_BODY_BYTES), text.length > LOG_BODY_BYTES);
        return failed(req, res, own, log, new HttpError(400, 'the request body is not valid UTF-8'));
      }
      run(text, tooLarge);
    });
  };

  const db: ServeCollection['db'] = (req, res, path) => {
    if (path !== 'db' || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    // Without a collection there is no database: the path is unmatched as any other.
    if (!options.database || options.database().size === 0) return false;
    const record: Answering = {};
    const log: Log = () => undefined;
    const url = req.url ?? '';
    const mark = url.indexOf('?');
    try {
      const callback = jsonpCallback(mark === -1 ? undefined : parseQuery(url.slice(mark + 1)).callback);
      wholeDb(collections, options.database).then(
        (value) => answer(req, res, record, log, { status: 200, value }, callback),
        (err: unknown) => failed(req, res, record, log, err),
      );
    } catch (err) {
      failed(req, res, record, log, err);
    }
    return true;
  };
  return { serve, db };
}

/**
 * An HTML form's body (`a=1&b=x`): json-server 0.17 takes it as an object of texts, a repeated name a
 * list, as Express's urlencoded parser without `extended` does; read by the project's one form parser
 * (../../http/form.ts), whose 1,000-field bound is that parser's too.
 */
function isForm(type: string | undefined): boolean {
  return type !== undefined && type.split(';', 1)[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/** Checked first: it says where the text goes wrong, and refuses nesting deep enough to overflow the stack later. */
function parseJson(text: string): unknown {
  const error = findJsonError(text);
  if (error) {
    const { line, column } = lineColumn(text, error.pos);
    throw new HttpError(400, `the request body is not valid JSON: line ${line}, column ${column}: ${error.message}`);
  }
  return JSON.parse(text) as unknown;
}

/** The body up to `limit` bytes; past it the rest is read and dropped, so memory stays bounded. */
function readBounded(req: IncomingMessage, limit: number, done: (raw: Buffer, tooLarge: boolean) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) tooLarge = true;
    else chunks.push(chunk);
  });
  req.on('end', () => done(tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), tooLarge));
}

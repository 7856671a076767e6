import fresh from 'fresh';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { corsHeaders, type CorsPolicy } from '../../http/cors.js';
import type { Handler } from '../../server/listen.js';
import { NOT_FOUND, parseRev, revisionAnswer, type ReadAnswer } from './read.js';
import type { BinConfig } from '../config/config.js';
import { ID_CHARS, normalizeId, REV_CHARS } from '../addresses/ids.js';
import type { BinStore, StoredRevision } from '../store/store.js';

// Only what no earlier Koa middleware claims: a revision that is a number or `latest` (so not
// /live or /console), no query string (so no api_key), percent-free ids (so no decoding).
const READ = new RegExp(`^/api/(${ID_CHARS})(?:/(${REV_CHARS}))?$`);
/** Routes of ours that READ also matches; the router matches them in any case. */
const NOT_BINS = new Set(['compile', 'template']);

/**
 * The API's CORS (JS Bin's users asked for it and never got it): any origin by default, the
 * Authorization header allowed. Here so the Koa routes and this fast path cannot differ.
 */
export function apiCorsPolicy(config: BinConfig): CorsPolicy {
  return {
    origin: config.cors.origin,
    methods: 'GET, HEAD, PUT, POST, DELETE, OPTIONS',
    allowHeaders: 'Authorization, Content-Type',
  };
}

/**
 * GET and HEAD of /api/:bin[/:rev] by anonymous readers, answered before Koa's middleware chain:
 * the hot read path (Koa alone reached 0.45x a bare node:http server; measured in bench/bins.js).
 * It sends what the Koa route sends (readAnswer's answers, the same CORS headers); anything else, a
 * key included, and any failure are left to `fallback`, the Koa app, which then answers in full.
 */
export function fastApiReads(store: BinStore, config: BinConfig, fallback: Handler): Handler {
  const anonymousRead = config.api.allowAnonymousRead || config.api.allowAnonymousReadWrite;
  const cors = corsHeaders(apiCorsPolicy(config)).flat();
  // The headers the Koa route sends, in the order this path always sent them, as writeHead's flat list.
  const prepare = (answer: ReadAnswer): Prepared => {
    const head = [...cors, 'Content-Type', 'application/json; charset=utf-8'];
    if (answer.etag) head.push('ETag', answer.etag);
    return { ...answer, notModified: head, head: [...head, 'Content-Length', String(answer.json.length)] };
  };
  // Each kept revision's answer, made once: revisions never change, and the store gives the same object
  // while it keeps it, so an answer lives as long as its revision is kept (its bytes are not counted
  // in cache.revisionsMB: about half as much again as the revision's own).
  const prepared = new WeakMap<StoredRevision, Prepared>();
  const answerFor = (revision: StoredRevision | undefined): Prepared => {
    if (!revision) return notFound;
    let answer = prepared.get(revision);
    if (!answer) {
      answer = prepare(revisionAnswer(revision));
      prepared.set(revision, answer);
    }
    return answer;
  };
  const notFound = prepare(NOT_FOUND);

  return (req, res) => {
    const match =
      anonymousRead &&
      (req.method === 'GET' || req.method === 'HEAD') &&
      req.headers.authorization === undefined &&
      !(req.headers.accept ?? '').includes('text/event-stream')
        ? READ.exec(req.url ?? '')
        : null;
    if (!match || NOT_BINS.has(match[1]!.toLowerCase())) return fallback(req, res);
    const bin = normalizeId(match[1]!);
    const rev = parseRev(match[2]);
    // From memory when kept, with no promise; otherwise the store is read (and keeps what it read).
    const kept = bin && store.peek(bin, rev);
    if (kept) {
      let answer: Prepared;
      try {
        answer = answerFor(kept);
      } catch {
        return fallback(req, res); // as a failed read below: Koa answers it in full
      }
      return send(req, res, answer);
    }
    (bin ? store.get(bin, rev) : Promise.resolve(undefined)).then(answerFor).then(
      (answer) => !res.destroyed && send(req, res, answer),
      () => fallback(req, res),
    );
  };
}

/** An answer with its heads prepared for writeHead: the full one, and a 304's (no Content-Length). */
type Prepared = ReadAnswer & { head: string[]; notModified: string[] };

function send(req: IncomingMessage, res: ServerResponse, { status, json, etag, head, notModified }: Prepared): void {
  const { headers } = req;
  // The `fresh` check Koa's ctx.fresh makes, so both paths answer a revalidation alike (fresh is false
  // at once without either header).
  if (etag && (headers['if-none-match'] || headers['if-modified-since']) && fresh(headers, { etag })) {
    res.writeHead(304, notModified);
    res.end();
    return;
  }
  res.writeHead(status, head);
  res.end(req.method === 'HEAD' ? undefined : json);
}

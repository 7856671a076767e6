import fresh from 'fresh';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { corsHeaders, type CorsPolicy } from '../../http/cors.js';
import type { Handler } from '../../server/listen.js';
import { readAnswer, type ReadAnswer } from './read.js';
import type { BinConfig } from '../config/config.js';
import { ID_CHARS, REV_CHARS } from '../addresses/ids.js';
import type { BinStore } from '../store/store.js';

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
 * It sends what the Koa route sends (readAnswer, the same CORS headers); anything else, a key
 * included, and any failure are left to `fallback`, the Koa app, which then answers in full.
 */
export function fastApiReads(store: BinStore, config: BinConfig, fallback: Handler): Handler {
  const anonymousRead = config.api.allowAnonymousRead || config.api.allowAnonymousReadWrite;
  const cors = apiCorsPolicy(config);
  return (req, res) => {
    const match =
      anonymousRead &&
      (req.method === 'GET' || req.method === 'HEAD') &&
      req.headers.authorization === undefined &&
      !(req.headers.accept ?? '').includes('text/event-stream')
        ? READ.exec(req.url ?? '')
        : null;
    if (!match || NOT_BINS.has(match[1]!.toLowerCase())) return fallback(req, res);
    readAnswer(store, match[1]!, match[2]).then(
      (answer) => send(req, res, answer, cors),
      () => fallback(req, res),
    );
  };
}

function send(req: IncomingMessage, res: ServerResponse, { status, json, etag }: ReadAnswer, cors: CorsPolicy): void {
  if (res.destroyed) return;
  const headers: Record<string, string | number> = {
    ...Object.fromEntries(corsHeaders(cors)),
    'Content-Type': 'application/json; charset=utf-8',
    ...(etag && { ETag: etag }),
  };
  // The `fresh` check Koa's ctx.fresh makes, so both paths answer a revalidation alike.
  if (etag && fresh(req.headers, { etag })) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  headers['Content-Length'] = Buffer.byteLength(json);
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' ? undefined : json);
}

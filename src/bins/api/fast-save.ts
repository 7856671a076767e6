import type { ServerResponse } from 'node:http';
import { corsHeaders, type HeaderPairs } from '../../http/cors.js';
import { parseForm } from '../../http/form.js';
import { hasBody, readUtf8 } from '../../http/read-body.js';
import type { Handler } from '../../server/listen.js';
import { leaveFastFailure, saveAnswer, type SaveAnswer } from './save.js';
import type { BinConfig } from '../config/config.js';
import { apiCorsPolicy } from './fast-read.js';
import { ID_CHARS, jointWord, normalizeId } from '../addresses/ids.js';
import { readSaveInput } from './save-input.js';
import type { BinStore } from '../store/store.js';

// POST /api/save and /api/:bin/save with no query string (so no api_key) and percent-free ids.
const SAVE = new RegExp(`^/api/(?:(${ID_CHARS})/)?save$`);
// The form type alone, or with the one charset readBodyText accepts.
const FORM = /^application\/x-www-form-urlencoded(?:\s*;\s*charset="?utf-?8"?)?$/i;

/**
 * Anonymous form saves, taken before Koa's middleware chain: the hot write path (through Koa a save
 * cost about 100 µs more CPU than the same SQLite work behind bare node:http; bench/bins.js). It
 * stores and answers through saveAnswer, as the Koa route does, with the same CORS headers. Any other
 * request is `fallback`'s, the Koa app; so is any failure once the body is read: the Koa route then
 * throws it (takeFastFailure) and answers it as every error is answered.
 */
export function fastApiSaves(store: BinStore, config: BinConfig, fallback: Handler): Handler {
  // Only where anonymous writes are allowed: a key, where one is needed, is checked in Koa alone.
  if (!config.api.allowAnonymousReadWrite) return fallback;
  const cors = corsHeaders(apiCorsPolicy(config));
  const limit = config['max-request-size'];
  return (req, res) => {
    const match =
      req.method === 'POST' &&
      req.headers.authorization === undefined &&
      FORM.test(req.headers['content-type'] ?? '') &&
      hasBody(req)
        ? SAVE.exec(req.url ?? '')
        : null;
    const named = match?.[1];
    const bin = named === undefined ? undefined : normalizeId(named);
    // A joint server's word is the Koa route's 400 to tell (api.ts saveParam).
    if (!match || (named !== undefined && (bin === undefined || jointWord(named)))) return fallback(req, res);
    readUtf8(req, limit)
      .then((text) => saveAnswer(store, bin, readSaveInput(parseForm(text), config)))
      .then(
        (answer) => send(res, answer, cors),
        (err: unknown) => {
          leaveFastFailure(req, err);
          fallback(req, res);
        },
      );
  };
}

function send(res: ServerResponse, answer: SaveAnswer, cors: HeaderPairs): void {
  if (res.destroyed) return;
  const json = JSON.stringify(answer);
  const headers: Record<string, string | number> = Object.fromEntries(cors);
  headers['Content-Type'] = 'application/json; charset=utf-8';
  headers['Content-Length'] = Buffer.byteLength(json);
  res.writeHead(200, headers);
  res.end(json);
}

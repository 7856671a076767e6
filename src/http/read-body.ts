import type getRawBody from 'raw-body';
import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import { HttpError } from './errors.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

// raw-body brings iconv-lite, whose code page tables (half a megabyte of the bundle) every start would
// read and compile for a decoding no request here uses; it is loaded at the first body read instead.
// (CommonJS: at run time its function is the namespace's default, which TypeScript's view of `export =` hides.)
let rawBody: Promise<typeof getRawBody> | undefined;
const loadRawBody = () =>
  (rawBody ??= import('raw-body').then((module) => (module as unknown as { default: typeof getRawBody }).default));

/** A Content-Type's media type, its parameters dropped, lower-cased: `Text/HTML; charset=utf-8` is `text/html`. */
export function mediaEssence(type: string | undefined): string {
  return (type ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Whether the request says it has a body: chunked, or a Content-Length other than 0. */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The request body as text. raw-body enforces the limit (declared length and bytes received)
 * and the Content-Length; the text must be valid UTF-8, which co-body-based parsers would
 * quietly turn into U+FFFD instead. Errors: 413 over `limit`, 415 for another charset, 400 else.
 */
export async function readBodyText(ctx: Context, limit: number | string): Promise<string> {
  const charset = ctx.request.charset.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpError(415, `send the body in UTF-8 (got charset ${charset})`);
  }
  return readUtf8(ctx.req, limit);
}

/** readBodyText on a bare request whose charset the caller has checked (the pre-Koa save path). */
export async function readUtf8(req: IncomingMessage, limit: number | string): Promise<string> {
  const readRaw = await loadRawBody();
  let raw: Buffer;
  try {
    raw = await readRaw(req, { length: req.headers['content-length'] || undefined, limit });
  } catch (err) {
    const { type, code } = err as { type?: string; code?: string };
    // Node's requestTimeout already answered 408 and closed the socket; this only ends the handler quietly.
    if (code === 'ERR_HTTP_REQUEST_TIMEOUT') throw new HttpError(408, 'request timed out');
    if (type === 'entity.too.large') {
      throw new HttpError(413, `request body too large (the limit is ${typeof limit === 'number' ? `${limit} bytes` : limit})`);
    }
    if (type === 'request.aborted') throw new HttpError(400, 'request aborted');
    if (type === 'request.size.invalid') throw new HttpError(400, 'the body is shorter or longer than its Content-Length');
    throw err;
  }
  try {
    return decoder.decode(raw);
  } catch {
    throw new HttpError(400, 'the request body is not valid UTF-8');
  }
}

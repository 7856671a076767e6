import type { Context } from 'koa';
import { HttpError } from '../http/errors.js';

/**
 * Reads the API request body as JSON: 415 unless it is declared JSON in UTF-8, 413 past `limit`
 * bytes, 400 when empty or malformed. Node drains whatever is left unread once we answer, so the
 * connection stays usable and the client gets the error rather than a reset.
 */
export async function readJsonBody(ctx: Context, limit: number): Promise<unknown> {
  const req = ctx.req;
  const declared = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && (declared === undefined || declared === '0')) {
    throw new HttpError(400, 'the request has no body; send a JSON object');
  }
  if (!ctx.is('application/json', '+json')) {
    const type = req.headers['content-type'];
    throw new HttpError(415, `send the body as application/json${type ? ` (got ${type})` : ''}`);
  }
  const charset = ctx.request.charset.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpError(415, `send the body in UTF-8 (got charset ${charset})`);
  }
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);

  const text = await readText(req, limit);
  if (text.trim() === '') throw new HttpError(400, 'the request has no body; send a JSON object');
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'malformed JSON body');
  }
}

function readText(req: Context['req'], limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size).toString('utf8'));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onAborted = () => onError(new HttpError(400, 'request aborted'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

function tooLarge(limit: number): HttpError {
  // The error middleware words every 413 the same way; the limit is in the serve-mocks help.
  return new HttpError(413, `request body over ${limit} bytes`);
}

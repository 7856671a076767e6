import type { Context } from 'koa';
import { HttpError } from '../http/errors.js';
import { readBodyText } from '../http/read-body.js';

/**
 * Reads the API request body as JSON: 415 unless it is declared JSON in UTF-8, 413 past `limit`
 * bytes, 400 when empty, malformed or not valid UTF-8.
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
  const text = await readBodyText(ctx, limit);
  if (text.trim() === '') throw new HttpError(400, 'the request has no body; send a JSON object');
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'malformed JSON body');
  }
}

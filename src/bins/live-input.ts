import type { Context } from 'koa';
import { HttpError } from '../http/errors.js';
import { readBodyText } from '../http/read-body.js';

/**
 * The small JSON bodies of the live routes (compile, broadcast, console records). Read here rather
 * than through the API's form parser: they are JSON only, with their own size limits.
 */
export async function readJsonObject(ctx: Context, limit: number): Promise<Record<string, unknown>> {
  const text = await readBodyText(ctx, limit);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'the body must be a JSON object');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'the body must be a JSON object');
  return body as Record<string, unknown>;
}

/** A string field of `body`, or a 400 naming it. */
export function stringField(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string') throw new HttpError(400, `${field} must be a string`, field);
  return value;
}

/** Counts requests per client address in fixed one-minute windows. */
export function rateLimiter(perMinute: number): (ctx: Context) => void {
  let window = 0;
  let counts = new Map<string, number>();
  return (ctx) => {
    const now = Math.floor(Date.now() / 60_000);
    if (now !== window) {
      window = now;
      counts = new Map();
    }
    const count = (counts.get(ctx.ip) ?? 0) + 1;
    counts.set(ctx.ip, count);
    if (count > perMinute) throw new HttpError(429, `too many requests: at most ${perMinute} a minute, try again shortly`);
  };
}

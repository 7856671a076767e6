import type { Context } from 'koa';
import { HttpError } from './errors.js';
import { isJsonObject, readJsonBody } from './json-body.js';

/**
 * The small JSON bodies of the live routes (compile, broadcast, console records), each with its own
 * size limit. Any Content-Type: a page's console records come as text/plain, which needs no preflight.
 */
export async function readJsonObject(ctx: Context, limit: number): Promise<Record<string, unknown>> {
  const body = await readJsonBody(ctx, { limit });
  if (!isJsonObject(body)) throw new HttpError(400, 'the body must be a JSON object');
  return body;
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

/**
 * A body field that holds JSON: text in a form (or a JSON body that sent it as a string), or the value
 * itself in a JSON body. Undefined for an absent or empty one; a 400 naming `field` for text that does not parse.
 */
export function jsonField(value: unknown, field: string): unknown {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw new HttpError(400, `${field} is not valid JSON`, field);
  }
}

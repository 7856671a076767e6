import type { Context } from 'koa';
import { HttpError } from './errors.js';
import { hasBody, readBodyText } from './read-body.js';

export type JsonBodyOptions = {
  /** Largest body, in bytes (or a size string such as '1mb'): beyond, a 413. */
  limit: number | string;
  /** Refuse with 415 a body not declared application/json or *+json; otherwise any type is read as JSON. */
  requireJsonType?: boolean;
};

/**
 * The one JSON request body reader. One rule for an empty body, whatever the server: no body
 * (no Content-Length or 0, no Transfer-Encoding) or one of only whitespace gives `undefined`, and
 * the caller says what that means (an empty save, a 400 in its own words). Otherwise: 415 for a
 * type not declared JSON (when asked), 413 past the limit, 400 for invalid UTF-8 or malformed JSON.
 */
export async function readJsonBody(ctx: Context, options: JsonBodyOptions): Promise<unknown> {
  // Before the type: with no body, Koa's ctx.is() answers null whatever the Content-Type says.
  if (!hasBody(ctx.req)) return undefined;
  if (options.requireJsonType && !ctx.is('application/json', '+json')) {
    const type = ctx.get('Content-Type');
    throw new HttpError(415, `send the body as application/json${type ? ` (got ${type})` : ''}`);
  }
  const text = await readBodyText(ctx, options.limit);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'malformed JSON body');
  }
}

/** True for a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when a parsed JSON value nests deeper than `max` levels (the value itself is level 1); without recursion. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

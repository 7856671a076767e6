import { z } from 'zod/v3';
import { parseSize } from './size.js';

// Each message names what a value must be, read after "is not …" or "; use …" in a config error.

export const flagSchema = z.boolean({ message: 'true or false' });

export const textSchema = z.string({ message: 'a string' });

const WHOLE = 'a whole number, 0 or more';
export const wholeNumberSchema = z.number({ message: WHOLE }).int({ message: WHOLE }).min(0, { message: WHOLE });

const PORT = 'a port number from 0 to 65535';
export const portSchema = z.number({ message: PORT }).int({ message: PORT }).min(0, { message: PORT }).max(65535, { message: PORT });

/** A size in bytes, given as a number of bytes or a text such as "1MB" or "512kb"; the app sees the number. */
export const sizeSchema = z.unknown().transform((value, ctx) => {
  const bytes = parseSize(value);
  if (bytes === undefined) ctx.addIssue({ code: 'custom', message: 'a size such as 1MB or 65536' });
  return bytes ?? 0;
});

const HOST = 'a host name such as dev.example or 192.168.1.5, or all';
/** Names for --allowed-host: what a Host header may carry, without a port. */
export const hostNamesSchema = z.array(
  z.string({ message: HOST }).regex(/^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?|\[[0-9a-f:.]+\])$/i, { message: HOST }),
  { message: HOST },
);

/** A strict object: a key the schema does not know is an error, not silently ignored. */
export function settingsObject<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape, { message: 'an object' });
}

const ORIGIN = 'an origin such as https://app.example or http://localhost:5173, or * for any page';

/**
 * `text` as a browser would send it in `Origin` (scheme, lower-case host, port unless the default),
 * or undefined when it is not an http(s) origin: a path, query, user or fragment is refused so a typo
 * such as `https://app.example/` is not silently something else.
 */
export function normalizeOrigin(text: string): string | undefined {
  const trimmed = text.trim().replace(/\/$/, '');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return undefined;
  return url.origin;
}

/** Origins for the Origins gate (`--cors-origin`, `cors.ownerOrigins`): each normalized, or `*`. */
export const originListSchema = z.array(
  z.string({ message: ORIGIN }).transform((text, ctx) => {
    if (text.trim() === '*') return '*';
    const origin = normalizeOrigin(text);
    if (origin === undefined) ctx.addIssue({ code: 'custom', message: ORIGIN });
    return origin ?? text;
  }),
  { message: 'a list of origins such as ["https://app.example"]' },
);

import type { ExpectedBody } from '../record/expects/expects.js';
import type { Problem } from './problems.js';
import { mediaEssence } from '../../http/read-body.js';
// A form's fields as a query's: a null prototype (a field named `constructor` is only a field), a repeated name a list.
import { parseQuery } from '../serve/request-input.js';

/**
 * The documented media type a body's Content-Type falls under (`content`'s key: the type itself,
 * else `type/*`, else `*\/*`), or the 415's problem. With no media type documented, any body goes.
 */
export function bodyType(
  header: string | undefined,
  content: ExpectedBody['content'],
): { type: string | undefined } | { refused: Problem } {
  const documented = Object.keys(content);
  if (documented.length === 0) return { type: undefined };
  const essence = mediaEssence(header);
  const range = `${essence.split('/')[0]}/*`;
  const type = [essence, range, '*/*'].find((candidate) => essence !== '' && Object.hasOwn(content, candidate));
  if (type !== undefined) return { type };
  const given = essence === '' ? 'no Content-Type' : `Content-Type ${essence}`;
  const expected = documented.join(', ');
  return { refused: { in: 'body', name: 'content-type', path: '', rule: 'contentType', expected, message: `${given}; the body may be ${expected}` } };
}

/**
 * The body as data for its schema: JSON media types are parsed, a URL-encoded form is an object of its
 * fields (text, a list where one repeats); other bodies are not checked against a schema (their value
 * is undefined, which every check skips).
 */
export function parsedBody(header: string | undefined, body: string): { value: unknown } | { problem: Problem } {
  const essence = mediaEssence(header);
  if (essence === 'application/x-www-form-urlencoded') return { value: parseQuery(body) };
  if (!/^application\/(.+\+)?json$/.test(essence)) return { value: undefined };
  try {
    return { value: JSON.parse(body) };
  } catch (err) {
    return { problem: { in: 'body', path: '', rule: 'json', expected: 'JSON', message: `the body is not JSON: ${(err as Error).message}` } };
  }
}

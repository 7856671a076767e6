import type { IncomingMessage } from 'node:http';
import type { ExpectedParam, ParamPlace } from '../record/expects/expects.js';

/**
 * The values a request gives for the parameters of one place, as one object for the place's
 * schema (compiled-expects.ts): text as sent, a list where a parameter repeats or its schema takes
 * a list in one value (`a,b`). Only documented parameters are read; others are not checked, as Prism
 * does. Without a prototype: a parameter named `constructor` that is absent stays absent.
 */
export function paramValues(
  place: ParamPlace,
  params: ExpectedParam[],
  req: IncomingMessage,
  route: Record<string, string>,
): Record<string, unknown> {
  const values: Record<string, unknown> = Object.create(null);
  const given = sourceOf(place, req, route);
  for (const param of params) {
    if (param.in !== place) continue;
    const found = given(param.name);
    if (found === undefined || found.length === 0) continue;
    const splits = takesList(param) && (place !== 'query' || param.explode === false);
    const items = splits ? found.flatMap((value) => value.split(',')) : found;
    values[param.name] = items.length === 1 && !takesList(param) ? items[0] : items;
  }
  return values;
}

/** Each value given for a name, in the order sent. */
type Source = (name: string) => string[] | undefined;

function sourceOf(place: ParamPlace, req: IncomingMessage, route: Record<string, string>): Source {
  if (place === 'path') return (name) => (Object.hasOwn(route, name) ? [route[name]!] : undefined);
  if (place === 'header') {
    return (name) => {
      const value = req.headers[name];
      return value === undefined ? undefined : Array.isArray(value) ? value : [value];
    };
  }
  if (place === 'query') {
    const url = req.url ?? '';
    const at = url.indexOf('?');
    const query = new URLSearchParams(at === -1 ? '' : url.slice(at + 1));
    return (name) => {
      const all = query.getAll(name);
      return all.length === 0 ? undefined : all;
    };
  }
  const cookies = cookiesOf(req.headers.cookie);
  return (name) => cookies.get(name);
}

/** The Cookie header's pairs; a name given twice keeps both values. */
export function cookiesOf(header: string | undefined): Map<string, string[]> {
  const cookies = new Map<string, string[]>();
  for (const pair of (header ?? '').split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1) continue;
    const name = pair.slice(0, equals).trim();
    const value = pair.slice(equals + 1).trim();
    const values = cookies.get(name);
    if (values) values.push(value);
    else cookies.set(name, [value]);
  }
  return cookies;
}

function takesList(param: ExpectedParam): boolean {
  const type = param.schema?.type;
  return type === 'array' || (Array.isArray(type) && type.includes('array'));
}

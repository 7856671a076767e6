import type { IncomingMessage } from 'node:http';
import type { TemplateInput } from '../templates/template.js';

/** What a template of an endpoint with a scenario also sees: `{{scenario.state}}`, the state its answer was chosen in. */
export type ScenarioInput = TemplateInput & { scenario?: { name: string; state: string } };

/**
 * What `when` and templates see of a request: parameters from the route, the query parsed (a
 * repeated key becomes a list), node's lower-cased headers, the body as JSON when it parses, else
 * its text (both cut at the request log's limit, which bounds what an anonymous caller makes us parse).
 */
export function requestInput(req: IncomingMessage, params: Record<string, string>, body: string): TemplateInput {
  const url = req.url ?? '';
  const mark = url.indexOf('?');
  return {
    params,
    query: mark === -1 ? {} : parseQuery(url.slice(mark + 1)),
    headers: req.headers,
    body: parseBody(body),
    method: req.method ?? 'GET',
    path: mark === -1 ? url : url.slice(0, mark),
  };
}

/** A query string as an object; a repeated key becomes a list. */
export function parseQuery(search: string): Record<string, string | string[]> {
  // A null prototype: a key such as "__proto__" or "constructor" is only a key.
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const [key, value] of new URLSearchParams(search)) {
    const seen = query[key];
    if (seen === undefined) query[key] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else query[key] = [seen, value];
  }
  return query;
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A path segment decoded, or as sent when it is not valid percent-encoding. */
export function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

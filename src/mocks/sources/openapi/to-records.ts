import { HttpError } from '../../../http/errors.js';
import { mediaEssence } from '../../../http/read-body.js';
import { checkName } from '../../record/validate.js';
import { checkHeaders } from '../../record/validate-fields.js';
import { checkPath } from '../../record/validate-route.js';
import { checkExpects, type Expects } from '../../record/expects/expects.js';
import { expectsOf } from './expects-of.js';
import { headerValue } from './header-value.js';
import { contentOf } from './content-of.js';
import { loadOpenapi } from './load-document.js';
import { METHODS, operationPointer } from './operation-refs.js';
import { asObject, mediaAnswer } from './media-answer.js';

/** Endpoint records as the import API takes them, and the operations that could not become one. */
export type OpenapiRecords = { records: Record<string, unknown>[]; skipped: string[] };

type Json = Record<string, unknown>;

/**
 * Turns the OpenAPI 3.0/3.1 or Swagger 2.0 document in `text` (the content of `file`) into one
 * endpoint record per operation (docs/mock-api.md, "From an OpenAPI document"). Throws an
 * OpenapiError naming the file and the place when the document does not parse or validate.
 */
export async function openapiRecords(file: string, text: string): Promise<OpenapiRecords> {
  const skipped: string[] = [];
  const document = asObject(await loadOpenapi(file, text, skipped));
  const swagger = 'swagger' in document;
  const records: Record<string, unknown>[] = [];
  const names = new Set<string>();
  const routes = new Map<string, string>();
  for (const [template, item] of Object.entries(asObject(document.paths))) {
    for (const method of METHODS) {
      const operation = asObject(asObject(item)[method]);
      if (!(method in asObject(item))) continue;
      const label = `${method.toUpperCase()} ${template}`;
      const skip = (why: string) => skipped.push(`${label}: ${why} (${operationPointer(template, method)})`);
      const routeNames = new Map<string, string>();
      const path = routeOf(template, routeNames);
      if (path === undefined) {
        skip('the path cannot be a route under /endpoint/');
        continue;
      }
      if (method === 'head' && 'get' in asObject(item)) {
        skip('the GET operation of this path answers HEAD');
        continue;
      }
      // `/files/{id}` and `/files/{id}.json` are both `files/:id`: the first one documented keeps it.
      const shape = `${method} ${path.split('/').map((segment) => (segment.startsWith(':') ? ':' : segment)).join('/')}`;
      const earlier = routes.get(shape);
      if (earlier !== undefined) {
        skip(`it is served at the same route as ${earlier}`);
        continue;
      }
      routes.set(shape, label);
      const name = uniqueName(operation.operationId, method, path, names);
      const expects = checkedExpects(expectsOf(operation, asObject(item), document, routeNames));
      records.push({ name, path, methods: [method.toUpperCase()], ...answers(operation, document, swagger), ...(expects && { expects }) });
    }
  }
  return { records, skipped };
}

/**
 * `/users/{id}` -> `users/:id`; a segment mixing text and a parameter becomes that parameter.
 * `names` gets each parameter that is a whole segment, under the name the route gives it.
 */
function routeOf(template: string, names: Map<string, string>): string | undefined {
  const used = new Set<string>();
  const segments = template.split('/').filter((segment) => segment !== '');
  const route = segments.map((segment) => {
    const param = /\{([^}]*)\}/.exec(segment);
    if (!param) return segment;
    let name = param[1]!.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(?=[0-9]|$)/, '_');
    while (used.has(name)) name += '_';
    used.add(name);
    if (param[0] === segment) names.set(param[1]!, name);
    return `:${name}`;
  });
  // `/` is `/endpoint/` itself.
  if (route.length === 0) return '/';
  try {
    return checkPath(route.join('/')).path;
  } catch (err) {
    if (err instanceof HttpError) return undefined;
    throw err;
  }
}

/** What the operation expects, if a record may hold it (expects-of.ts keeps within the bounds; this makes sure). */
function checkedExpects(expects: Expects | undefined): Expects | undefined {
  if (expects === undefined) return undefined;
  try {
    return checkExpects(expects, 'expects');
  } catch (err) {
    if (err instanceof HttpError) return undefined;
    throw err;
  }
}

/** The operationId made a valid name, else `get-users-id`; `-2`, `-3` added to a name already taken. */
function uniqueName(operationId: unknown, method: string, path: string, taken: Set<string>): string {
  const given = typeof operationId === 'string' ? operationId : `${method}-${path}`;
  const base = given.replace(/[^A-Za-z0-9._~-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 120) || method;
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()) || !isValidName(name); n++) name = `${base}-${n}`;
  taken.add(name.toLowerCase());
  return name;
}

function isValidName(name: string): boolean {
  try {
    checkName(name);
    return true;
  } catch {
    return false;
  }
}

/** The success answer as the endpoint's own, each other status as a response chosen by `?__code=`. */
function answers(operation: Json, document: Json, swagger: boolean): Json {
  const produces = swagger ? strings(operation.produces ?? document.produces) : undefined;
  const { found: statuses, fromDefault } = statusesOf(asObject(operation.responses));
  const success = [...statuses.keys()].find((code) => code >= 200 && code < 300) ?? [...statuses.keys()][0] ?? 200;
  const own = statuses.get(success);
  const responses = [...statuses]
    .filter(([code]) => code !== success)
    .map(([code, response]) => ({
      when: { query: { __code: String(code) } },
      ...answerOf(code, response),
      ...(code === fromDefault && { anyStatus: true }),
    }));
  return {
    ...answerOf(success, own ?? {}),
    ...(responses.length > 0 && { responses }),
  };

  function answerOf(code: number, response: Json): Json {
    const answer = mediaAnswer(response, document, produces);
    const headers = headersOf(response, swagger);
    if ('contentType' in answer && answer.contentType) headers['Content-Type'] = answer.contentType;
    const body = 'data' in answer ? { data: answer.data } : { body: answer.body };
    const own = 'data' in answer ? 'application/json' : answer.contentType && mediaEssence(answer.contentType);
    const content = contentOf(response, document, swagger, own);
    return { statusCode: code, ...body, ...(Object.keys(headers).length > 0 && { headers }), ...(content && { content }) };
  }
}

/**
 * Documented statuses in ascending order. `4XX`-style ranges stand for their x00 status when that
 * is not documented; `default` is the 200 of an operation that documents nothing else, else a 500.
 */
function statusesOf(responses: Json): { found: Map<number, Json>; fromDefault?: number } {
  const found = new Map<number, Json>();
  const add = (code: number, response: unknown) => {
    if (!found.has(code)) found.set(code, asObject(response));
  };
  for (const [key, response] of Object.entries(responses)) if (/^[2-5]\d\d$/.test(key)) add(Number(key), response);
  for (const [key, response] of Object.entries(responses)) {
    if (/^[2-5]XX$/i.test(key)) add(Number(key[0]) * 100, response);
  }
  let fromDefault: number | undefined;
  if ('default' in responses) {
    fromDefault = found.size === 0 ? 200 : 500;
    if (found.has(fromDefault)) fromDefault = undefined;
    add(found.size === 0 ? 200 : 500, responses.default);
  }
  return { found: new Map([...found].sort(([a], [b]) => a - b)), ...(fromDefault !== undefined && { fromDefault }) };
}

/** Documented headers (header-value.ts says with what), each kept only if a record may hold it. */
function headersOf(response: Json, swagger: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(asObject(response.headers))) {
    const value = headerValue(asObject(header), swagger);
    if (value === undefined) continue;
    try {
      Object.assign(headers, checkHeaders({ ...headers, [name]: value }, 'headers'));
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
    }
  }
  return headers;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

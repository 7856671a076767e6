import { mediaEssence } from '../../http/read-body.js';

/**
 * A GraphQL-over-HTTP request's parameters (graphql.github.io/graphql-over-http): GET with
 * `?query=&operationName=&variables=`, POST with a JSON body `{query, operationName, variables}` or
 * an `application/graphql` body that is the query itself.
 */

export type GraphqlParams = {
  query: string;
  operationName?: string;
  variables?: Record<string, unknown>;
  /** GET may only query: a mutation sent by GET is refused (405), as caches and prefetchers send GETs. */
  get: boolean;
};

/** What the server read of the request: the body cut at the request log's 64 KiB. */
export type RequestParts = {
  method: string;
  search: URLSearchParams;
  contentType: string | undefined;
  body: string;
  truncated: boolean;
};

/** A request that is not a GraphQL request: its status and why. */
export type Refusal = { status: number; message: string; allow?: string };

export function readParams(request: RequestParts): GraphqlParams | Refusal {
  const { method, search } = request;
  if (method === 'GET') {
    return checked(search.get('query'), search.get('operationName'), jsonOrText(search.get('variables')), true);
  }
  if (method !== 'POST') return { status: 405, message: `${method} is not a GraphQL request: send GET or POST`, allow: 'GET, POST' };
  if (request.truncated) return { status: 413, message: 'the request body is over 64 KiB' };
  const type = mediaEssence(request.contentType);
  if (type === 'application/graphql') {
    return checked(request.body, search.get('operationName'), jsonOrText(search.get('variables')), false);
  }
  if (type !== 'application/json') {
    return { status: 415, message: 'send the request as application/json ({"query": …}) or application/graphql' };
  }
  let body: unknown;
  try {
    body = JSON.parse(request.body);
  } catch {
    return { status: 400, message: 'the request body is not valid JSON' };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { status: 400, message: 'the request body must be a JSON object: {"query": …}' };
  }
  const { query, operationName, variables } = body as Record<string, unknown>;
  return checked(query, operationName, variables, false);
}

/** `variables` in a URL is JSON text; undefined stays undefined, text that is not JSON is kept to be refused. */
function jsonOrText(text: string | null): unknown {
  if (text === null || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function checked(query: unknown, operationName: unknown, variables: unknown, get: boolean): GraphqlParams | Refusal {
  if (typeof query !== 'string' || query.trim() === '') return { status: 400, message: 'the request has no query' };
  const params: GraphqlParams = { query, get };
  if (operationName !== undefined && operationName !== null) {
    if (typeof operationName !== 'string') return { status: 400, message: 'operationName must be a string' };
    params.operationName = operationName;
  }
  if (variables !== undefined && variables !== null) {
    if (typeof variables !== 'object' || Array.isArray(variables)) return { status: 400, message: 'variables must be a JSON object' };
    params.variables = variables as Record<string, unknown>;
  }
  return params;
}

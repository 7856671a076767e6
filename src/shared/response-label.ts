// One response of an endpoint as one line, the same on the mock page, in `mock get` and `mock log`:
// `#1 POST · body contains {password} → 401 JSON`. Responses are numbered as people count, from #1;
// the API's `response` index and its error fields (`responses[0].when`) count from 0.

/** What a label needs of a response: loose, since the page's input and the API's answer both come here. */
export type LabelledResponse = {
  when?: {
    method?: string[] | string;
    params?: Record<string, unknown>;
    query?: Record<string, unknown>;
    headers?: Record<string, unknown>;
    body?: unknown;
    state?: string;
    operationName?: string;
    variables?: Record<string, unknown>;
  };
  statusCode?: number;
  data?: unknown;
  base64Body?: unknown;
  body?: unknown;
  fault?: string;
  setState?: string;
};

/** `#1` for responses[0]. */
export function responseNumber(index: number): string {
  return `#${index + 1}`;
}

/** `POST · id=7 · page=2 · x-role: admin · body contains {password}`, or `always`. */
export function whenText(when: LabelledResponse['when']): string {
  if (!when) return 'always';
  const parts: string[] = [];
  if (when.method !== undefined) parts.push([when.method].flat().join(' '));
  for (const [name, value] of Object.entries(when.params ?? {})) parts.push(`${name}=${String(value)}`);
  for (const [name, value] of Object.entries(when.query ?? {})) parts.push(`?${name}=${[value].flat().join('|')}`);
  for (const [name, value] of Object.entries(when.headers ?? {})) parts.push(`${name}: ${String(value)}`);
  if (when.body !== undefined) parts.push(`body contains ${bodyShape(when.body)}`);
  if (when.state !== undefined) parts.push(`state ${when.state}`);
  // A GraphQL endpoint's: `operation Pay · variables {amount}`.
  if (when.operationName !== undefined) parts.push(`operation ${when.operationName}`);
  if (when.variables !== undefined) parts.push(`variables ${bodyShape(when.variables)}`);
  return parts.length === 0 ? 'always' : parts.join(' · ');
}

/** `{password}`, `{a, b, …}` for an object's keys; a short JSON text otherwise. */
function bodyShape(body: unknown): string {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const keys = Object.keys(body);
    return `{${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', …' : ''}}`;
  }
  const text = JSON.stringify(body) ?? '';
  return text.length > 24 ? `${text.slice(0, 23)}…` : text;
}

/** `401 JSON`, `200 text`, `fault reset`: what it sends, the endpoint's status where it sets none. */
export function answerText(response: LabelledResponse, endpointStatus?: number): string {
  if (response.fault !== undefined) return `fault ${response.fault}`;
  const status = response.statusCode ?? endpointStatus;
  const kind = response.data !== undefined ? 'JSON' : typeof response.body === 'string' ? 'text' : typeof response.base64Body === 'string' ? 'bytes' : '';
  return [status, kind].filter((part) => part !== undefined && part !== '').join(' ');
}

/** The whole line: `#1 POST · body contains {password} → 401 JSON`, and `, then state paid` with a setState. */
export function responseLabel(index: number, response: LabelledResponse, endpointStatus?: number): string {
  const answer = answerText(response, endpointStatus);
  const then = response.setState === undefined ? '' : `, then state ${response.setState}`;
  return `${responseNumber(index)} ${whenText(response.when)}${answer ? ` → ${answer}` : ''}${then}`;
}

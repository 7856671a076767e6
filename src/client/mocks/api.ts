/** The server's root as this page sees it: the page is at <root>/static/, so a proxy's path prefix is kept. */
export const ROOT = new URL('../', document.baseURI);

export type EndpointSummary = {
  name: string;
  statusCode: number;
  delay: number;
  hits: number;
  /** ISO time of the last request since the server started, or null. */
  lastCall: string | null;
  updated: string;
};

export type EndpointInput = {
  name: string;
  data: unknown;
  statusCode: number;
  delay: number;
  headers: Record<string, string>;
};

export type EndpointRecord = EndpointSummary & { data: unknown; headers?: Record<string, string> };

/** One request an endpoint received, as the server logs it. */
export type LoggedRequest = {
  time: string;
  method: string;
  url: string;
  ip?: string;
  headers: Record<string, string | string[]>;
  body: string;
  bodyTruncated: boolean;
};

/** The server's error answer `{ success: false, message, field? }`, or a failure to reach it. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

const segment = (name: string) => encodeURIComponent(name);

/** Where `name` answers, under this page's origin and prefix (not the URL the server believes it has). */
export const endpointUrl = (name: string): string => new URL(`endpoint/${segment(name)}`, ROOT).href;

export const eventsUrl = (name: string): string => new URL(`api/endpoint/${segment(name)}/events`, ROOT).href;

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(new URL(`api/${path}`, ROOT), {
      method,
      headers: body === undefined ? undefined : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    throw new ApiError('the mock server cannot be reached');
  }
  let answer: { success?: boolean; message?: string; field?: string };
  try {
    answer = await res.json();
  } catch {
    throw new ApiError(`the server answered ${res.status} without JSON`);
  }
  if (!res.ok || answer.success === false) throw new ApiError(answer.message ?? `HTTP ${res.status}`, answer.field);
  return answer as T;
}

export const listEndpoints = async (): Promise<EndpointSummary[]> =>
  (await call<{ endpoints: EndpointSummary[] }>('GET', 'endpoints')).endpoints;

export const getEndpoint = (name: string): Promise<EndpointRecord> => call('GET', `endpoint/${segment(name)}`);

/** Creates only: a name in use is an ApiError on `name`. */
export const addEndpoint = (input: EndpointInput): Promise<unknown> => call('PUT', 'endpoint/add', input);

export const replaceEndpoint = (input: EndpointInput): Promise<unknown> =>
  call('PUT', `endpoint/${segment(input.name)}`, input);

export const deleteEndpoint = (name: string): Promise<unknown> => call('DELETE', `endpoint/${segment(name)}`);

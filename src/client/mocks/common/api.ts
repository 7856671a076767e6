/** The server's root as this page sees it: the page is at <root>/static/, so a proxy's path prefix is kept. */
export const ROOT = new URL('../', document.baseURI);

/** Milliseconds, fixed or drawn uniformly from [min, max] per request. */
export type Delay = number | { min: number; max: number };

export const FAULTS = ['reset', 'empty', 'malformed', 'hang'] as const;
export type Fault = (typeof FAULTS)[number];

export const PICKS = ['first-match', 'sequence', 'random'] as const;
export type Pick = (typeof PICKS)[number];

/** The methods the page offers; the server takes any token, these are the ones people mock. */
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export type EndpointSummary = {
  name: string;
  /** Where it answers under /endpoint/: the name when no path was set. */
  path: string;
  /** null: every method. */
  methods: string[] | null;
  statusCode: number;
  delay: Delay;
  template: boolean;
  /** How many alternative responses it has. */
  responses: number;
  hits: number;
  /** ISO time of the last request, or null. */
  lastCall: string | null;
  updated: string;
  /** `file:<path>` when a watched file holds it (serve-mocks --dir); the API cannot change it then. */
  source?: string;
  /** REST when absent. */
  kind?: 'graphql' | 'websocket' | 'sse';
};

/** All given parts must match a request. */
export type When = {
  method?: string[];
  params?: Record<string, string>;
  /** A list: any of. */
  query?: Record<string, string | string[]>;
  headers?: Record<string, string>;
  body?: Record<string, unknown>;
  /** The endpoint's scenario is in this state. */
  state?: string;
};

/** An alternative answer: what it leaves out comes from the endpoint. At most one of data, body and base64Body. */
export type ResponseInput = {
  when?: When;
  statusCode?: number;
  data?: unknown;
  body?: string;
  base64Body?: string;
  headers?: Record<string, string>;
  delay?: Delay;
  fault?: Fault;
  faultRate?: number;
  /** The scenario's state after this answer. */
  setState?: string;
  /** Requests sent after this answer, instead of the endpoint's; [] for none. */
  callbacks?: unknown[];
  /** Kept as loaded (the form has no fields for them): other media types, an OpenAPI default. */
  content?: unknown;
  anyStatus?: boolean;
};

/** The record the page sends: optional fields only when set, exactly one of data, body and base64Body. */
export type EndpointInput = {
  name: string;
  /** REST when absent; GraphQL with its schema (SDL) and mocks (docs/mock-api.md, "GraphQL"); a WebSocket or event-stream endpoint's record is a StreamInput. */
  kind?: 'graphql' | 'websocket' | 'sse';
  schema?: string;
  mocks?: Record<string, unknown>;
  path?: string;
  methods?: string[];
  statusCode: number;
  data?: unknown;
  body?: string;
  base64Body?: string;
  delay: Delay;
  headers?: Record<string, string>;
  template?: boolean;
  collection?: boolean;
  responses?: ResponseInput[];
  pick?: Pick;
  fault?: Fault;
  faultRate?: number;
  /** The stateful scenario it takes part in, and the state its own answer moves it to. */
  scenario?: string;
  setState?: string;
  /** Requests sent after each answer (docs/mock-api.md, "Callbacks"). */
  callbacks?: unknown[];
  /** Kept as loaded (the form has no fields for them): request validation, other media types. */
  expects?: unknown;
  validate?: boolean;
  content?: unknown;
};

/** A WebSocket or event-stream endpoint: name, path, kind and its script's fields (docs/mock-api.md). */
export type StreamInput = { name: string; path?: string; kind: 'websocket' | 'sse' } & Record<string, unknown>;

export type EndpointRecord = EndpointInput & { hits: number; lastCall: string | null; url: string; source?: string };

/** Why a watched file's last change was not applied (GET /api/sources). */
export type SourceProblem = { file: string; message: string; line?: number; column?: number; field?: string };

/** One request an endpoint received, as the server logs it, and which answer it got. */
export type LoggedRequest = {
  time: string;
  method: string;
  url: string;
  ip?: string;
  headers: Record<string, string | string[]>;
  body: string;
  bodyTruncated: boolean;
  /** Index in `responses`, null for the endpoint's own answer; absent from older servers. */
  response?: number | null;
  /** What was sent; null for a fault. */
  status?: number | null;
  fault?: Fault;
  /** The bin whose page made the call (`fumugi/3`), as the page claimed it (X-Snippetkit-Bin). */
  bin?: string;
  /** The callbacks its answer sent: status and ms once answered, error when not sent or failed. */
  callbacks?: { method: string; url: string; status?: number; ms?: number; error?: string }[];
  /** A GraphQL endpoint's request: its operation's name. */
  operationName?: string;
  /** On a WebSocket or event-stream endpoint: which connection (0: a broadcast) and what happened on it. */
  socket?: { connection: number; event: string; code?: number };
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

// Where endpoints answer: beside this page's root on a mock server alone; at the origin's /endpoint/ on
// `snippetkit serve`, where the page is at /mocks/ and /mocks/endpoint/… works too but is not the URL to
// hand out (findEndpointBase).
let endpointBase = new URL('endpoint/', ROOT);
// Where the bins are, on `snippetkit serve` only: a mock server alone knows no bin server.
let binsBase: URL | undefined;

/**
 * On `snippetkit serve` (its GET /api/whoami, one level above this page's root, names it), endpoints are
 * handed out at its /endpoint/, under the same proxy prefix as this page, and the bins are known (links
 * to a calling bin's editor, "Try it in a bin"). A mock server alone has no whoami (404): the base stays
 * where it was, and no bins. Called once, before the page draws an endpoint's URL.
 */
export async function findEndpointBase(): Promise<void> {
  const jointRoot = new URL('../', ROOT);
  if (jointRoot.href === ROOT.href) return; // the page is at the origin's root: not under /mocks/
  try {
    const res = await fetch(new URL('api/whoami', jointRoot), { cache: 'no-store' });
    const answer = res.ok ? ((await res.json()) as { server?: string; endpoints?: string; bins?: string }) : {};
    if (answer.server === 'snippetkit serve' && typeof answer.endpoints === 'string') {
      endpointBase = new URL(answer.endpoints.replace(/^\//, ''), jointRoot);
      if (typeof answer.bins === 'string') binsBase = new URL(answer.bins.replace(/^\//, ''), jointRoot);
    }
  } catch {
    // unreachable or not JSON: the endpoints are where this page's own server serves them
  }
}

/**
 * Where an endpoint answers, under this page's origin and prefix (not the URL the server believes it
 * has). `path` is shown as given, `:id` and all, as the server's own `url` shows it.
 */
export const endpointUrl = (path: string): string => `${endpointBase.href}${path}`;

/** The bins' root on `snippetkit serve` (its editor, its API), under this page's proxy prefix; undefined on a mock server alone. */
export const binsRoot = (): URL | undefined => binsBase;

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
export const addEndpoint = (input: EndpointInput | StreamInput): Promise<unknown> => call('PUT', 'endpoint/add', input);

/** Answers the record as stored. */
export const replaceEndpoint = (input: EndpointInput | StreamInput): Promise<EndpointRecord> =>
  call('PUT', `endpoint/${segment(input.name)}`, input);

/** A WebSocket or event-stream endpoint's open connections. */
export const listConnections = async (name: string): Promise<{ connection: number; ip: string; since: string }[]> =>
  (await call<{ connections: { connection: number; ip: string; since: string }[] }>('GET', `endpoint/${segment(name)}/connections`)).connections;

/** Sends `data` (a string as text) to every open connection; how many it reached. */
export const broadcast = async (name: string, data: unknown): Promise<number> =>
  (await call<{ sent: number }>('POST', `endpoint/${segment(name)}/broadcast`, { data })).sent;

export const listSourceProblems = async (): Promise<SourceProblem[]> =>
  (await call<{ errors: SourceProblem[] }>('GET', 'sources')).errors;

export const deleteEndpoint = (name: string): Promise<unknown> => call('DELETE', `endpoint/${segment(name)}`);

/** The endpoints closest to a request none answered, and how it differed from each. */
export type NearMiss = { name: string; path: string; methods: string[] | null; differences: string[] };

/** `nearMisses` null: the server ran out of time for it in this answer (the next one has it). */
export type UnmatchedRequest = LoggedRequest & { nearMisses: NearMiss[] | null };

/** Requests no endpoint answered, newest first; `count` numbers them since the server started. */
export const listUnmatched = (): Promise<{ count: number; requests: UnmatchedRequest[] }> => call('GET', 'unmatched');

export const clearUnmatched = (): Promise<unknown> => call('DELETE', 'unmatched');

/** The server-wide stream: what changed, a few times a second at most. */
export const serverEventsUrl = (): string => new URL('api/events', ROOT).href;

/** A `summary` event of the server-wide stream. */
export type ServerSummary = {
  /** Moves whenever an endpoint is added, changed or removed. */
  revision: number;
  /** Endpoints called since the last summary. */
  endpoints: { name: string; hits: number; lastCall: string | null }[];
  /** The unmatched log's count, when requests no endpoint answered came. */
  unmatched?: number;
};

/** GET /api/scenarios: each scenario's state now, and the states its endpoints name (`start` first). */
export type ScenarioStates = { scenarios: Record<string, string>; states: Record<string, string[]> };

export const listScenarios = (): Promise<ScenarioStates> => call('GET', 'scenarios');

/** Sets states (`{ checkout: 'paid' }`); answers every scenario's state after. */
export const setScenarios = (states: Record<string, string>): Promise<ScenarioStates> => call('PUT', 'scenarios', states);

/** The mock server of `snippetkit serve`, as the editor finds it: all three are URLs on the editor's origin. */
export type MockServer = {
  /** The management API's base (`/mocks/api/`). */
  api: URL;
  /** Where endpoints answer (`/endpoint/`). */
  endpoints: URL;
  /** The mock page (`/mocks/static/`), whose hash routes open an endpoint (`#endpoint/<name>`). */
  page: URL;
  /** With private mocks (`serve --private-mocks`): where the preview's token is asked for (preview-token.ts). */
  tokens?: URL;
};

/** An item of `GET /api/endpoints` (docs/mock-api.md), the fields the pane shows. */
export type EndpointItem = {
  name: string;
  /** The effective route under /endpoint/: the name when no path was set. */
  path: string;
  /** null: every method. */
  methods: string[] | null;
  statusCode: number;
  hits: number;
};

/** A hit count of the server-wide stream's `summary` event. */
export type Hit = { name: string; hits: number };

/** One answer per root for the page's life: the Mocks pane, the With mocks box and the preview's tokens all ask. */
const found = new Map<string, Promise<MockServer | undefined>>();

/**
 * The mock server beside this bin server, when it is `snippetkit serve` (its `GET /api/whoami` says so,
 * docs/serve.md); undefined on `serve-bins` alone, where that path is a bin's (a 404, or an old bin's JSON).
 * The paths it names are resolved against the bins' root, so a proxy's prefix carries over. Asked once.
 */
export function findMockServer(root: URL): Promise<MockServer | undefined> {
  let finding = found.get(root.href);
  if (!finding) found.set(root.href, (finding = askWhoami(root)));
  return finding;
}

async function askWhoami(root: URL): Promise<MockServer | undefined> {
  try {
    const res = await fetch(new URL('api/whoami', root), { cache: 'no-store' });
    if (!res.ok) return undefined;
    const answer = (await res.json()) as { server?: unknown; mocks?: unknown; endpoints?: unknown; mockTokens?: unknown };
    if (answer.server !== 'snippetkit serve' || typeof answer.mocks !== 'string' || typeof answer.endpoints !== 'string') {
      return undefined;
    }
    const mocks = new URL(answer.mocks.replace(/^\//, ''), root);
    return {
      api: new URL('api/', mocks),
      endpoints: new URL(answer.endpoints.replace(/^\//, ''), root),
      page: new URL('static/', mocks),
      ...(typeof answer.mockTokens === 'string' && { tokens: new URL(answer.mockTokens.replace(/^\//, ''), root) }),
    };
  } catch {
    return undefined; // unreachable, or not JSON: no mocks here
  }
}

/** The mock API's error answer `{ success: false, message, field? }`, or a failure to reach it. */
export class MockApiError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

async function call<T>(server: MockServer, method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(new URL(path, server.api), {
      method,
      headers: body === undefined ? undefined : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    throw new MockApiError('the mock server cannot be reached');
  }
  let answer: { success?: boolean; message?: unknown; field?: unknown };
  try {
    answer = (await res.json()) as typeof answer;
  } catch {
    throw new MockApiError(`the mock server answered ${res.status} without JSON`);
  }
  if (!res.ok || answer.success === false) {
    const message = typeof answer.message === 'string' ? answer.message : `HTTP ${res.status}`;
    throw new MockApiError(message, typeof answer.field === 'string' ? answer.field : undefined);
  }
  return answer as T;
}

export const listEndpoints = async (server: MockServer): Promise<EndpointItem[]> =>
  (await call<{ endpoints: EndpointItem[] }>(server, 'GET', 'endpoints')).endpoints;

/** Creates an endpoint answering `data` (a name in use is a MockApiError on `name`). */
export const addEndpoint = (server: MockServer, record: { name: string; path?: string; data: unknown }): Promise<unknown> =>
  call(server, 'PUT', 'endpoint/add', record);

export type HitListeners = {
  /** The stream (re)opened, or endpoints were added, changed or removed: list them again. */
  stale(): void;
  /** Endpoints were called: their new hit counts. */
  called(hits: Hit[]): void;
};

/**
 * Follows the server-wide stream (`GET /api/events`) until the returned function is called: `stale` at
 * each connection's first `summary` (the first, and after a drop: EventSource reconnects by itself).
 */
export function followHits(server: MockServer, listeners: HitListeners): () => void {
  const source = new EventSource(new URL('events', server.api));
  let revision: number | undefined;
  source.addEventListener('summary', (event) => {
    const summary = JSON.parse((event as MessageEvent<string>).data) as { revision: number; endpoints: Hit[] };
    if (revision === undefined) {
      // Listed from here on, every later hit arrives as a count (not a step), so none is lost or counted twice.
      revision = summary.revision;
      listeners.stale();
      return;
    }
    if (summary.revision !== revision) {
      revision = summary.revision;
      listeners.stale();
    }
    if (summary.endpoints.length > 0) listeners.called(summary.endpoints);
  });
  source.addEventListener('error', () => (revision = undefined));
  return () => source.close();
}

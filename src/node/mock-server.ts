import { createMockHandler } from '../mocks/app.js';
import { RequestFeed } from '../mocks/log/feed.js';
import type { LoggedRequest } from '../mocks/log/request-log.js';
import type { Delay, EventScript, MockInput, ResponseRecord, SocketReply, SocketScript } from '../mocks/record/record.js';
import { openMemoryMockStore, openMockStore, openSharedMockStore } from '../mocks/store/open-store.js';
import type { MockStore } from '../mocks/store/store.js';
import { checksHost, guardHost } from '../server/host-check.js';
import { listen } from '../server/listen.js';
import { silentLogger, type Logger } from '../server/logger.js';
import type { JournalEntry } from '../mocks/verify/differences.js';
import type { Expected, RequestPattern } from '../mocks/verify/pattern.js';
import { verificationReport, type FailedVerification } from '../mocks/verify/report.js';
import { apiClient, MockApiError } from './api-client.js';
import { checkCallbackHost } from '../mocks/callbacks/hosts.js';
import { createCallbackSender } from '../mocks/callbacks/sender.js';
import { checkBasePath } from '../mocks/config/base-path.js';

export type MockServerOptions = {
  /** 0 (the default): a free port, read back from `port` and `url`. */
  port?: number;
  /** 127.0.0.1 by default; the Host check guards a loopback address as serve-mocks does. */
  host?: string;
  /** A SQLite file to keep the endpoints in; without it (and `store`) they live in memory only. */
  data?: string;
  /** A shared store: postgres://… or redis://… (docs/stores.md). */
  store?: string;
  /** Endpoints to add before the server answers, as `add` takes them. */
  endpoints?: MockRecord[];
  /** Where the server says what it does; silent by default, so a test's output stays its own. */
  logger?: Logger;
  /** The limits and policies of serve-mocks' flags of the same names (docs/serve-mocks.md), same defaults. */
  maxDelay?: number;
  maxBody?: number;
  /** false: no CORS headers (`--no-cors`). */
  cors?: boolean;
  corsOrigins?: string[];
  maxRequestCpu?: number;
  logSize?: number;
  maxEndpoints?: number;
  maxLogBytes?: number;
  maxStoreBytes?: number;
  /** Hosts callbacks may go to besides loopback (`--callback-host`: `hooks.example.com`, `10.0.0.5:8080`). */
  callbackHosts?: string[];
  /** How long a callback may take, in milliseconds (`--callback-timeout`; 10000). */
  callbackTimeout?: number;
  /** Check requests to endpoints with `expects` (`--validate`; false). */
  validate?: boolean;
  /**
   * Answer endpoints at `<basePath>/<their path>` too (`--base-path`): `/` serves an imported OpenAPI
   * document's operations at their own paths, as Prism does; not under /api, /static or /endpoint.
   */
  basePath?: string;
};

/** One of an endpoint's `responses`, as docs/mock-api.md describes it. */
export type MockResponse = Omit<ResponseRecord, 'json'> & { data?: unknown };

/** An endpoint as docs/mock-api.md describes it (the body of `PUT /api/endpoint/add`); the server fills defaults. */
export type MockRecord = Omit<MockInput, 'json' | 'statusCode' | 'delay' | 'responses' | 'socket' | 'stream'> & {
  statusCode?: number;
  delay?: Delay;
  data?: unknown;
  /** A REST endpoint's alternative answers, or a WebSocket endpoint's replies (kind `websocket`). */
  responses?: MockResponse[] | SocketReply[];
} & Omit<SocketScript, 'responses'> & Partial<EventScript>;

/** The record as stored, defaults filled in: what `add` and `put` resolve with. */
export type StoredRecord = MockRecord & { statusCode: number; delay: Delay };

/** What the API answers for one endpoint: its stored record with counters and its URL. */
export type MockDetails = StoredRecord & {
  hits: number; lastCall: string | null; created: string; updated: string; url: string };

/** One line of `list()`. */
export type MockSummary = {
  name: string;
  /** What the endpoint speaks when not REST (docs/mock-api.md, "GraphQL"). */
  kind?: 'graphql';
  path: string;
  methods: string[] | null;
  statusCode: number;
  hits: number;
  lastCall: string | null;
  url: string;
  source?: string;
};

export type { JournalEntry, LoggedRequest };

/** Which requests `requests()` and `verify()` mean; every part given must hold (docs/testing-with-mocks.md). */
export type RequestFilter = Omit<RequestPattern, 'name' | 'bodySchema'>;

/**
 * What `verify()` expects: the filter, a `bodySchema` (a JSON Schema object, draft 2020-12 or draft-07
 * by its `$schema`, the body parsed as JSON must validate against; `requests()` has none, its filter
 * goes in a query string), and how many: exactly `count`, or `atLeast` and/or `atMost`; at least one by default.
 */
export type Verification = RequestFilter & { bodySchema?: Record<string, unknown> } & Expected;

export type MockServer = {
  /** The server's origin, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly port: number;
  /** The URL an endpoint's path is served at: `endpointUrl('users/7')`. */
  endpointUrl(path: string): string;
  /** Creates an endpoint; one of the same name is a MockApiError 409. Resolves with the stored record. */
  add(record: MockRecord): Promise<StoredRecord>;
  /** Creates or replaces the endpoint of `record.name`. */
  put(record: MockRecord): Promise<StoredRecord>;
  /** The endpoint with its counters, or undefined when there is none. */
  get(name: string): Promise<MockDetails | undefined>;
  list(): Promise<MockSummary[]>;
  /** False when there was no such endpoint. */
  remove(name: string): Promise<boolean>;
  /**
   * The requests the endpoint's log holds (every log's, with `name` undefined, the unmatched one
   * included) that match `filter`, oldest first; a MockApiError 404 for an unknown name.
   */
  requests(name: string | undefined, filter?: RequestFilter): Promise<JournalEntry[]>;
  /**
   * Resolves with the matching requests (oldest first) when as many came as `expected` says; else
   * rejects with a MockApiError (status 417) whose message lists the closest requests and what differed.
   */
  verify(name: string | undefined, expected?: Verification): Promise<JournalEntry[]>;
  /** Each scenario an endpoint names, with its state (`start` before any request): `{ checkout: 'paid' }`. */
  scenarios(): Promise<Record<string, string>>;
  /** Sets states, all or none (`PUT /api/scenarios`): a scenario no endpoint names is a MockApiError 404. */
  setScenarios(states: Record<string, string>): Promise<void>;
  /** Empties the endpoint's log; its hit count stays. */
  clearRequests(name: string): Promise<void>;
  /** Sends `data` (a string as text, anything else as JSON) to every open connection of a WebSocket or event-stream endpoint; how many it reached. */
  broadcast(name: string, data: unknown): Promise<number>;
  /** Deletes every endpoint added through the API, empties every log and counter, and puts every scenario at `start` (`POST /api/reset`). */
  reset(): Promise<void>;
  /** Stops the server (requests in flight finish) and closes its store; an in-memory one is gone. */
  close(): Promise<void>;
};

/**
 * A mock server in this process, for a test suite: `const mocks = await startMockServer()`, stubs with
 * `add`, the code under test calls `mocks.endpointUrl(…)`, then `requests`, `reset`, `close`. The same
 * server serve-mocks runs (its fast path, its checks), without the CLI. docs/testing-with-mocks.md.
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { port = 0, host = '127.0.0.1', logger = silentLogger } = options;
  const { logSize, maxEndpoints, maxLogBytes, maxStoreBytes } = options;
  const storeOptions = withoutUnset({ logSize, maxEndpoints, maxLogBytes, maxStoreBytes, logger });
  const basePath = options.basePath === undefined ? undefined : checkBasePath(options.basePath);
  if (basePath && 'problem' in basePath) throw new TypeError(`startMockServer: basePath: ${basePath.problem}`);
  for (const host of options.callbackHosts ?? []) {
    const problem = checkCallbackHost(host);
    if (problem) throw new TypeError(`startMockServer: callbackHosts: ${problem.replace('--callback-host ', '')}`);
  }
  let store: MockStore;
  if (options.data !== undefined && options.store !== undefined) {
    throw new TypeError('startMockServer takes `data` (a SQLite file) or `store` (a URL), not both');
  }
  if (options.store !== undefined) store = await openSharedMockStore(options.store, storeOptions);
  else if (options.data !== undefined) store = await openMockStore(options.data, storeOptions);
  else store = await openMemoryMockStore(storeOptions);

  const { maxDelay, maxBody, cors, corsOrigins, maxRequestCpu, callbackHosts: named = [], callbackTimeout, validate } = options;
  const feed = new RequestFeed();
  const callbacks = createCallbackSender({ hosts: named, timeoutMs: callbackTimeout, account: store.memory.callbacks });
  const config = withoutUnset({ maxDelay, maxBody, cors, corsOrigins, maxRequestCpu, validate, basePath: basePath?.path });
  const handler = createMockHandler({ store, config, logger, feed, callbacks });
  const refusal = (message: string) => ({ success: false, message });
  let running;
  try {
    running = await listen(checksHost(host, []) ? guardHost(handler, [], refusal) : handler, port, host);
  } catch (err) {
    feed.close();
    callbacks.close();
    await store.close();
    throw err;
  }
  const client = apiClient(running.url);
  const path = (name: string) => `/api/endpoint/${encodeURIComponent(name)}`;
  // The API's answers carry `success: true` beside the record.
  const details = <T>({ success: _, ...rest }: { success: boolean } & T): T => rest as T;
  let closing: Promise<void> | undefined;

  const server: MockServer = {
    url: running.url,
    port: running.port,
    endpointUrl: (endpointPath) => `${running.url}/endpoint/${endpointPath.replace(/^\/+/, '')}`,
    add: async (record) => details<StoredRecord>(await client.call('PUT', '/api/endpoint/add', record)),
    put: async (record) => details<StoredRecord>(await client.call('PUT', path(record.name), record)),
    async get(name) {
      try {
        return details<MockDetails>(await client.call('GET', path(name)));
      } catch (err) {
        if ((err as { status?: number }).status === 404) return undefined;
        throw err;
      }
    },
    list: async () => (await client.call<{ endpoints: MockSummary[] }>('GET', '/api/endpoints')).endpoints,
    async remove(name) {
      try {
        await client.call('DELETE', path(name));
        return true;
      } catch (err) {
        if ((err as { status?: number }).status === 404) return false;
        throw err;
      }
    },
    async requests(name, filter = {}) {
      const query = queryOf({ ...filter, ...(name !== undefined && { name }) });
      const { requests } = await client.call<{ requests: JournalEntry[] }>('GET', `/api/requests?limit=1000&${query}`);
      return requests.reverse();
    },
    async verify(name, expected = {}) {
      try {
        const body = { ...expected, ...(name !== undefined && { name }) };
        return (await client.call<{ requests: JournalEntry[] }>('POST', '/api/verify', body)).requests.reverse();
      } catch (err) {
        if (!(err instanceof MockApiError) || err.status !== 417 || !err.answer) throw err;
        throw new MockApiError(417, verificationReport(err.answer as FailedVerification), undefined, err.answer);
      }
    },
    clearRequests: async (name) => void (await client.call('DELETE', `${path(name)}/requests`)),
    broadcast: async (name, data) => (await client.call<{ sent: number }>('POST', `${path(name)}/broadcast`, { data })).sent,
    scenarios: async () => (await client.call<{ scenarios: Record<string, string> }>('GET', '/api/scenarios')).scenarios,
    setScenarios: async (states) => void (await client.call('PUT', '/api/scenarios', states)),
    reset: async () => void (await client.call('POST', '/api/reset')),
    close: () =>
      (closing ??= (async () => {
        client.close();
        feed.close();
        callbacks.close();
        await running.close();
        await store.close();
      })()),
  };
  try {
    for (const record of options.endpoints ?? []) await server.add(record);
  } catch (err) {
    await server.close();
    throw err;
  }
  return server;
}

/** A pattern as GET /api/requests' query string: `query.KEY` and `headers.NAME` for the nested parts. */
function queryOf(pattern: RequestPattern): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(pattern)) {
    if (value === undefined) continue;
    if (typeof value === 'string') params.set(key, value);
    else for (const [name, text] of Object.entries(value as Record<string, string>)) params.set(`${key}.${name}`, text);
  }
  return params.toString();
}

/** `values` without its undefined entries, so defaults further down apply. */
function withoutUnset<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

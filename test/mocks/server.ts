import { join } from 'node:path';
import type { MockAppOptions, MockConfig } from '../../src/mocks/app.js';
import { createMockApp, createMockHandler } from '../../src/mocks/app.js';
import type { RequestFeed } from '../../src/mocks/log/feed.js';
import { openMockStore } from '../../src/mocks/store/open-store.js';
import type { MockStore, MockStoreOptions } from '../../src/mocks/store/store.js';
import { listen } from '../../src/server/listen.js';
import { createCallbackSender } from '../../src/mocks/callbacks/sender.js';
import type { Logger } from '../../src/server/logger.js';
import { tempDir } from '../helpers/temp.js';
import type { TestResponse } from '../helpers/http.js';

export type TestMockServer = {
  url: string;
  file: string;
  store: MockStore;
  /** Server-side error lines logged so far. */
  errors: string[];
  /** Info and warning lines logged so far. */
  logs: string[];
  fetch(path: string, init?: RequestInit): Promise<TestResponse>;
  /** Connections the server holds open right now. */
  connections(): Promise<number>;
  /** PUT a JSON value (already a string, or serialized here) to `path`. */
  putJson(path: string, body: unknown): Promise<TestResponse>;
  close(): Promise<void>;
};

export type StartOptions = {
  config?: Partial<MockConfig>;
  /** Reuse a data file (restart tests); a temp one otherwise, removed on close. */
  file?: string;
  /** false: serve /endpoint/* through Koa's chain only, to compare it with the hot path. */
  hotPath?: boolean;
  /** The feed of the page's live request log, to close it as the CLI does at shutdown. */
  feed?: RequestFeed;
  /** Log size and save interval of the store. */
  store?: Partial<MockStoreOptions>;
  /** Watched files' problems, for GET /api/sources. */
  sources?: MockAppOptions['sources'];
};

/** The real mock server on 127.0.0.1, port 0, over a real SQLite file. Always close it. */
export async function startMockServer(options: StartOptions = {}): Promise<TestMockServer> {
  const temp = options.file ? undefined : tempDir();
  const file = options.file ?? join(temp!.dir, 'mocks.sqlite');
  const errors: string[] = [];
  const logs: string[] = [];
  const logger: Logger = {
    info: (line) => logs.push(line),
    warn: (line) => logs.push(line),
    error: (line) => errors.push(line),
  };
  const store = await openMockStore(file, { logger, ...options.store });
  // Made here, as the CLI makes it, to close it with the server: callbacks waiting then are dropped.
  const callbacks = createCallbackSender({
    hosts: options.config?.callbackHosts,
    timeoutMs: options.config?.callbackTimeout,
    account: store.memory.callbacks,
  });
  const appOptions = { store, config: options.config, logger, feed: options.feed, sources: options.sources, callbacks };
  const handler =
    options.hotPath === false ? createMockApp(appOptions).callback() : createMockHandler(appOptions);
  const running = await listen(handler, 0, '127.0.0.1');
  const request = (path: string, init?: RequestInit): Promise<TestResponse> => fetch(running.url + path, init);
  return {
    url: running.url,
    file,
    store,
    errors,
    logs,
    fetch: request,
    connections: () =>
      new Promise((resolve, reject) => running.server.getConnections((err, n) => (err ? reject(err) : resolve(n)))),
    putJson: (path, body) =>
      request(path, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    async close() {
      callbacks.close();
      await running.close(100);
      await store.close();
      temp?.cleanup();
    },
  };
}

/** Registers an endpoint through the API and fails loudly if that did not work. */
export async function addEndpoint(server: TestMockServer, record: Record<string, unknown>): Promise<void> {
  const res = await server.putJson('/api/endpoint/add', record);
  if (res.status !== 201) throw new Error(`add failed: ${res.status} ${await res.text()}`);
}

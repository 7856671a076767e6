import chalk from 'chalk';
import { createMockHandler } from '../../mocks/app.js';
import { RequestFeed } from '../../mocks/log/feed.js';
import { createCallbackSender, type CallbackSender } from '../../mocks/callbacks/sender.js';
import { createSourceLoader } from '../../mocks/sources/loader.js';
import { openMockStore, openSharedMockStore } from '../../mocks/store/open-store.js';
import type { MockStore } from '../../mocks/store/store.js';
import type { Handler } from '../../server/listen.js';
import type { Logger } from '../../server/logger.js';
import type { ProxySettings } from '../../mocks/proxy/proxy.js';
import type { RecordShape } from '../../mocks/record/recording.js';
import { defaultDataFile } from '../../store/data-file.js';
import { isLoopback } from '../../server/loopback.js';
import { consoleLogger } from '../start/console-logger.js';
import { proxySettings } from './proxy-settings.js';
import { writeRecordFile } from './record-file.js';
import { serveUntilSignal } from '../start/serve.js';
import type { MockSettings, ServeMocksFlags } from './settings.js';
import { openDirSource, type DirOption } from './dir-option.js';
import { openOpenapiSource, resolveBasePath } from './openapi-option.js';
import { openGraphqlSource } from './graphql-option.js';
import { openDbSource } from './db-option.js';

/** What serving the mocks takes, apart from listening: serve-mocks serves it alone, `serve` beside the bins. */
export type MockParts = {
  open(): Promise<MockStore>;
  handler(store: MockStore): Handler;
  beforeClose(): void;
  /** The start-up line's part after the URL: where the endpoints are kept, how many, the proxy. */
  summary(store: MockStore): string;
};

export function mockParts(settings: MockSettings, logger: Logger): MockParts {
  const { maxDelay, maxBody, cors, corsOrigins, trustProxy, logSize, maxEndpoints, maxLogBytes, maxStoreBytes, maxRequestCpu } = settings;
  const { callbackHosts: named, callbackTimeout, validate } = settings;
  let basePath: string | undefined;
  const feed = new RequestFeed();
  let callbacks: CallbackSender | undefined;
  // One loader for --dir, --openapi, --graphql and --db, so GET /api/sources lists the problems of all.
  const loader = settings.dir || settings.openapi || settings.graphql || settings.db ? createSourceLoader({ maxDelay }) : undefined;
  const files = loader && openDirSource(settings.dir, { loader, maxBody, maxEndpoints, logger });
  const openapi = loader && openOpenapiSource(settings.openapi, loader, logger);
  const graphql = loader && openGraphqlSource(settings.graphql, settings.graphqlPath, loader, logger);
  const db = loader && openDbSource(settings.db, { writeDb: settings.writeDb, loader, logger });
  const proxy = recordInto(proxySettings(settings), files);
  return {
    open: async () => {
      basePath = await resolveBasePath(settings.basePath, settings.openapi);
      const preload = async (opened: MockStore) => {
        await files?.load(opened);
        await openapi?.load(opened);
        await graphql?.load(opened);
        await db?.load(opened);
      };
      const options = { logSize, maxEndpoints, maxLogBytes, maxStoreBytes, logger, preload };
      const store = settings.store
        ? await openSharedMockStore(settings.store, options)
        : await openMockStore(settings.data ?? defaultDataFile('mocks'), options);
      files?.watch();
      openapi?.watch();
      graphql?.watch();
      db?.watch();
      return store;
    },
    handler: (store) => {
      const config = { maxDelay, maxBody, cors, corsOrigins, trustProxy, proxy, maxRequestCpu, validate, basePath };
      callbacks = createCallbackSender({ hosts: named, timeoutMs: callbackTimeout, account: store.memory.callbacks });
      return createMockHandler({ store, config, logger, feed, sources: loader, callbacks });
    },
    // Open request-log streams (the web page) would otherwise hold shutdown for the grace period.
    beforeClose: () => {
      feed.close();
      callbacks?.close();
      files?.close();
      openapi?.close();
      graphql?.close();
      db?.close();
    },
    summary: (store) => {
      const held = count(store.list().length) + (files?.summary() ?? '');
      const proxied = proxy ? `  proxy ${proxy.target}${proxy.record ? ' (recording)' : ''}` : '';
      const calls = named.length > 0 ? `  callbacks to localhost, ${named.join(', ')}` : '';
      const based = basePath === undefined ? '' : `  endpoints also at ${basePath === '/' ? '' : basePath}/…`;
      const where = `${settings.store ? 'store' : 'data'} ${store.file}`;
      return `${where}  ${held}${proxied}${calls}${based}`;
    },
  };
}

/** Said after listening on an address other machines reach: the mock API has no key. */
export const openMockWarning = (host: string) =>
  `warning: listening on ${host}: the mock API has no key, so anyone who can reach this machine can change endpoints`;

export async function startMockServer(flags: ServeMocksFlags, settings: MockSettings): Promise<void> {
  const logger = consoleLogger(flags.quiet);
  const parts = mockParts(settings, logger);
  await serveUntilSignal({
    port: settings.port,
    host: flags.host,
    allowedHosts: settings.allowedHosts,
    hostRefusal: (message) => ({ success: false, message }),
    open: parts.open,
    handler: parts.handler,
    beforeClose: parts.beforeClose,
    banner: flags.quiet ? undefined : (url, store) => `snippetkit mocks on ${chalk.bold(url)}  ${parts.summary(store)}`,
    log: logger.info,
  });
  if (!isLoopback(flags.host)) logger.warn(openMockWarning(flags.host));
}

/**
 * With --dir, recordings become record files there, the folder's truth. Each is applied as soon as it
 * is written, not when the watcher sees it: the next answer for that path must add to this recording.
 */
function recordInto(proxy: ProxySettings | undefined, files: DirOption | undefined): ProxySettings | undefined {
  if (!proxy || !files) return proxy;
  const save = async (shape: RecordShape) => {
    await writeRecordFile(files.dir, shape, files.maxFileBytes);
    await files.reload(`${shape.name}.json`);
  };
  return { ...proxy, save };
}

function count(n: number): string {
  return n === 1 ? '1 endpoint' : `${n} endpoints`;
}

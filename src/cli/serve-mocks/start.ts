import chalk from 'chalk';
import { createMockHandler } from '../../mocks/app.js';
import { RequestFeed } from '../../mocks/log/feed.js';
import { createSourceLoader } from '../../mocks/sources/loader.js';
import { openMockStore, openSharedMockStore, type MockStore } from '../../mocks/store/store.js';
import type { ProxySettings } from '../../mocks/proxy/proxy.js';
import type { RecordShape } from '../../mocks/proxy/recorder.js';
import { defaultDataFile } from '../../store/data-file.js';
import { isLoopback } from '../../server/loopback.js';
import { consoleLogger } from '../start/console-logger.js';
import { proxySettings } from './proxy-settings.js';
import { writeRecordFile } from './record-file.js';
import { serveUntilSignal } from '../start/serve.js';
import type { MockSettings, ServeMocksFlags } from './settings.js';
import { openDirSource, type DirOption } from './dir-option.js';
import { openOpenapiSource } from './openapi-option.js';
import { openDbSource } from './db-option.js';

export async function startMockServer(flags: ServeMocksFlags, settings: MockSettings): Promise<void> {
  const logger = consoleLogger(flags.quiet);
  const { maxDelay, maxBody, cors, corsOrigins, trustProxy, logSize, maxEndpoints, maxLogBytes, maxStoreBytes, maxRequestCpu } = settings;
  const feed = new RequestFeed();
  // One loader for --dir, --openapi and --db, so GET /api/sources lists the problems of all.
  const loader = settings.dir || settings.openapi || settings.db ? createSourceLoader({ maxDelay }) : undefined;
  const files = loader && openDirSource(settings.dir, { loader, maxBody, maxEndpoints, logger });
  const openapi = loader && openOpenapiSource(settings.openapi, loader, logger);
  const db = loader && openDbSource(settings.db, { writeDb: settings.writeDb, loader, logger });
  const proxy = recordInto(proxySettings(settings), files);
  await serveUntilSignal({
    port: settings.port,
    host: flags.host,
    allowedHosts: settings.allowedHosts,
    hostRefusal: (message) => ({ success: false, message }),
    open: async () => {
      const preload = async (opened: MockStore) => {
        await files?.load(opened);
        await openapi?.load(opened);
        await db?.load(opened);
      };
      const options = { logSize, maxEndpoints, maxLogBytes, maxStoreBytes, logger, preload };
      const store = settings.store
        ? await openSharedMockStore(settings.store, options)
        : await openMockStore(settings.data ?? defaultDataFile('mocks'), options);
      files?.watch();
      openapi?.watch();
      db?.watch();
      return store;
    },
    handler: (store) => {
      const config = { maxDelay, maxBody, cors, corsOrigins, trustProxy, proxy, maxRequestCpu };
      return createMockHandler({ store, config, logger, feed, sources: loader });
    },
    // Open request-log streams (the web page) would otherwise hold shutdown for the grace period.
    beforeClose: () => {
      feed.close();
      files?.close();
      openapi?.close();
      db?.close();
    },
    banner: flags.quiet
      ? undefined
      : (url, store) => {
          const held = count(store.list().length) + (files?.summary() ?? '');
          const proxied = proxy ? `  proxy ${proxy.target}${proxy.record ? ' (recording)' : ''}` : '';
          const where = `${settings.store ? 'store' : 'data'} ${store.file}`;
          return `snippetkit mocks on ${chalk.bold(url)}  ${where}  ${held}${proxied}`;
        },
    log: logger.info,
  });
  if (!isLoopback(flags.host)) {
    logger.warn(`warning: listening on ${flags.host}: the mock API has no key, so anyone who can reach this machine can change endpoints`);
  }
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

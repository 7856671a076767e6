import chalk from 'chalk';
import { createMockHandler } from '../mocks/app.js';
import { RequestFeed } from '../mocks/request-feed.js';
import { openMockStore } from '../mocks/store.js';
import { defaultDataFile } from '../store/data-file.js';
import { isLoopback } from '../server/loopback.js';
import { consoleLogger } from './console-logger.js';
import { loadMockSettings } from './mock-settings.js';
import { proxySettings } from './proxy-settings.js';
import { serveUntilSignal } from './serve.js';
import type { ServeMocksFlags } from './serve-mocks.js';

export async function startMockServer(flags: ServeMocksFlags, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const settings = loadMockSettings(flags, env);
  const file = settings.data ?? defaultDataFile('mocks');
  const logger = consoleLogger(flags.quiet);
  const { maxDelay, maxBody, cors, trustProxy, logSize, maxEndpoints, maxLogBytes } = settings;
  const proxy = proxySettings(settings);
  const feed = new RequestFeed();
  await serveUntilSignal({
    port: settings.port,
    host: flags.host,
    allowedHosts: settings.allowedHosts,
    hostRefusal: (message) => ({ success: false, message }),
    open: () => openMockStore(file, { logSize, maxEndpoints, maxLogBytes, logger }),
    handler: (store) =>
      createMockHandler({ store, config: { maxDelay, maxBody, cors, trustProxy, proxy }, logger, feed }),
    // Open request-log streams (the web page) would otherwise hold shutdown for the grace period.
    beforeClose: () => feed.close(),
    banner: flags.quiet
      ? undefined
      : (url, store) =>
          `snippetkit mocks on ${chalk.bold(url)}  data ${store.file}  ${count(store.list().length)}` +
          (proxy ? `  proxy ${proxy.target}${proxy.record ? ' (recording)' : ''}` : ''),
    log: logger.info,
  });
  if (!isLoopback(flags.host)) {
    logger.warn(`warning: listening on ${flags.host}: the mock API has no key, so anyone who can reach this machine can change endpoints`);
  }
}

function count(n: number): string {
  return n === 1 ? '1 endpoint' : `${n} endpoints`;
}

import chalk from 'chalk';
import { createMockHandler } from '../mocks/app.js';
import { RequestFeed } from '../mocks/request-feed.js';
import { openMockStore } from '../mocks/store.js';
import { defaultDataFile } from '../store/data-file.js';
import { consoleLogger } from './console-logger.js';
import { isLoopback } from './loopback.js';
import { envPort } from './options.js';
import { serveUntilSignal } from './serve.js';
import type { ServeMocksFlags } from './serve-mocks.js';

export const DEFAULT_MOCK_PORT = 16540;

export async function startMockServer(flags: ServeMocksFlags, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const file = flags.data ?? (env.SNIPPETKIT_MOCK_DATA || defaultDataFile('mocks'));
  const port = flags.port ?? envPort('SNIPPETKIT_MOCK_PORT', env) ?? DEFAULT_MOCK_PORT;
  const logger = consoleLogger(flags.quiet);
  const config = {
    maxDelay: flags.maxDelay,
    maxBody: flags.maxBody,
    cors: flags.cors,
    trustProxy: flags.trustProxy ?? false,
  };
  const feed = new RequestFeed();
  await serveUntilSignal({
    port,
    host: flags.host,
    open: () => openMockStore(file),
    handler: (store) => createMockHandler({ store, config, logger, feed }),
    // Open request-log streams (the web page) would otherwise hold shutdown for the grace period.
    beforeClose: () => feed.close(),
    banner: flags.quiet
      ? undefined
      : (url, store) => `snippetkit mocks on ${chalk.bold(url)}  data ${store.file}  ${count(store.list().length)}`,
    log: logger.info,
  });
  if (!isLoopback(flags.host)) {
    logger.warn(`warning: listening on ${flags.host}: the mock API has no key, so anyone who can reach this machine can change endpoints`);
  }
}

function count(n: number): string {
  return n === 1 ? '1 endpoint' : `${n} endpoints`;
}

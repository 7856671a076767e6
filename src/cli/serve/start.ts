import { readFileSync } from 'node:fs';
import chalk from 'chalk';
import { ENDPOINT_PREFIX, jointHandler, MOCKS_PREFIX } from '../../server/joint.js';
import { isLoopback } from '../../server/loopback.js';
import { packageFile } from '../../server/package-files.js';
import { binParts } from '../serve-bins/start.js';
import { mockParts, openMockWarning } from '../serve-mocks/start.js';
import { consoleLogger } from '../start/console-logger.js';
import { serveUntilSignal } from '../start/serve.js';
import type { ServeFlags, ServeSettings } from './settings.js';

type BinStore = Awaited<ReturnType<ReturnType<typeof binParts>['open']>>;
type MockStore = Awaited<ReturnType<ReturnType<typeof mockParts>['open']>>;
/** Both stores, closed together at shutdown (serveUntilSignal closes what open() gave it). */
type Stores = { bins: BinStore; mocks: MockStore; close(): Promise<void> };

/** `snippetkit serve`: both apps on their own stores behind one listener, one Host check and one shutdown. */
export async function startJointServer(flags: ServeFlags, settings: ServeSettings): Promise<void> {
  const logger = consoleLogger(flags.quiet);
  const { bins: binSettings, mocks: mockSettings } = settings;
  const bins = binParts(flags.host, settings.binConfig, binSettings, logger);
  const mocks = mockParts(mockSettings, logger);
  await serveUntilSignal<Stores>({
    port: settings.port,
    host: flags.host,
    allowedHosts: settings.allowedHosts,
    // A refused Host is told in both apps' shapes at once: JS Bin's `error` and the mock server's `message`.
    hostRefusal: (message) => ({ error: message, success: false, message }),
    open: async () => {
      const binStore = await bins.open();
      let mockStore: MockStore;
      try {
        mockStore = await mocks.open();
      } catch (err) {
        await binStore.close();
        throw err;
      }
      const close = async () => {
        await Promise.all([binStore.close(), mockStore.close()]);
      };
      return { bins: binStore, mocks: mockStore, close };
    },
    handler: (stores) =>
      jointHandler({ bins: bins.handler(stores.bins), mocks: mocks.handler(stores.mocks), version: packageVersion() }),
    beforeClose: () => {
      bins.beforeClose();
      mocks.beforeClose();
    },
    banner: flags.quiet
      ? undefined
      : (url, stores) =>
          [
            bins.banner(url, stores.bins),
            `snippetkit mocks on ${chalk.bold(`${url}${MOCKS_PREFIX}/`)}  endpoints at ${url}${ENDPOINT_PREFIX}  ${mocks.summary(stores.mocks)}`,
          ].join('\n'),
    log: logger.info,
  });
  if (bins.warning) logger.warn(bins.warning);
  if (!isLoopback(flags.host)) logger.warn(openMockWarning(flags.host));
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
}

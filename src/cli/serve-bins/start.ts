import chalk from 'chalk';
import { createBinHandler } from '../../bins/app.js';
import { createCompiler } from '../../bins/compile/compiler.js';
import { apiMode, type BinConfig } from '../../bins/config/config.js';
import { createLiveHub } from '../../bins/live/hub.js';
import { openSharedBinStore } from '../../bins/store/shared-store.js';
import { openBinStore } from '../../bins/store/store.js';
import { defaultDataFile } from '../../store/data-file.js';
import { consoleLogger } from '../start/console-logger.js';
import { isLoopback } from '../../server/loopback.js';
import { serveUntilSignal } from '../start/serve.js';
import type { ServeBinsFlags, ServeBinsSettings } from './config.js';

export async function startBinServer(flags: ServeBinsFlags, config: BinConfig, settings: ServeBinsSettings): Promise<void> {
  const { port, data, store: shared, allowedHosts } = settings;
  const cache = { heads: config.cache.heads, revisionBytes: config.cache.revisionsMB * 1024 * 1024 };
  const logger = consoleLogger(flags.quiet);
  // Made here, not by the app, so shutdown can end open event streams and stop compile children.
  const live = createLiveHub();
  const compiler = createCompiler();
  await serveUntilSignal({
    port,
    host: flags.host,
    allowedHosts,
    hostRefusal: (message) => ({ error: message }),
    open: () => (shared ? openSharedBinStore(shared, cache) : openBinStore(data ?? defaultDataFile('bins'), cache)),
    handler: (store) => {
      // Several instances on one store: followers on this one get what editors send to the others.
      if (store.relay) live.join(store.relay);
      return createBinHandler({ store, config, logger, live, compiler });
    },
    beforeClose: () => {
      live.close();
      compiler.close();
    },
    banner: flags.quiet ? undefined : (url, store) => banner(url, `${shared ? 'store' : 'data'} ${store.where}`, config),
    log: logger.info,
  });
  if (!isLoopback(flags.host) && apiMode(config) === 'open') {
    logger.warn(`warning: listening on ${flags.host} with anonymous writes on: anyone who can reach this machine can save bins`);
  }
}

function banner(url: string, where: string, config: BinConfig): string {
  const mode = apiMode(config);
  const modeText = {
    open: chalk.yellow('API open: anyone can read and write'),
    keyed: config.api.allowAnonymousRead
      ? chalk.green('API keyed: anyone can read bins, writes need the API key')
      : chalk.green(
          'Private: every bin (pages, panels, streams, API) needs the API key; browsers give it once with ?api_key=<key>',
        ),
    'read-only': chalk.yellow(
      'API read-only: set SNIPPETKIT_OWNERSHIP_API_KEY=<key> or SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE=true to allow saves',
    ),
    closed: chalk.yellow('API closed: no reads or writes without a key, and no key is set'),
  }[mode];
  return `snippetkit bins on ${chalk.bold(url)}  ${where}  ${modeText}`;
}

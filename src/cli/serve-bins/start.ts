import chalk from 'chalk';
import { createBinHandler } from '../../bins/app.js';
import { createCompiler } from '../../bins/compile/compiler.js';
import { apiMode, type BinConfig } from '../../bins/config/config.js';
import { createLiveHub } from '../../bins/live/hub.js';
import { keepGeneratedKey, KeyFileError, type KeptKey } from '../../bins/auth/generated-key.js';
import { CliError, EXIT } from '../common/errors.js';
import { openSharedBinStore } from '../../bins/store/shared-store.js';
import { openBinStore, type BinStore } from '../../bins/store/store.js';
import type { IncomingMessage } from 'node:http';
import { ownerCheck } from '../../bins/auth/owner-request.js';
import type { Handler } from '../../server/listen.js';
import type { MockTokens } from '../../server/mock-token.js';
import type { Logger } from '../../server/logger.js';
import { defaultDataFile } from '../../store/data-file.js';
import { consoleLogger } from '../start/console-logger.js';
import { isLoopback } from '../../server/loopback.js';
import { serveUntilSignal } from '../start/serve.js';
import type { ServeBinsFlags, ServeBinsSettings } from './config.js';

/** What serving the bins takes, apart from listening: serve-bins serves it alone, `serve` beside the mocks. */
export type BinParts = {
  open(): Promise<BinStore>;
  /** `mockTokens`: beside private mocks, the tokens the owner's output pages carry for their endpoint calls. */
  handler(store: BinStore, mockTokens?: MockTokens): Handler;
  beforeClose(): void;
  /** Whether a raw request shows the owner's key or session; undefined when there is no key to show. */
  owner?: (req: IncomingMessage) => boolean;
  /** The start-up lines, given the URL the bins answer at. */
  banner(url: string, store: BinStore): string;
  /** Said after listening, if anything. */
  warning?: string;
};

export function binParts(host: string, given: BinConfig, where: { data?: string; store?: string }, logger: Logger): BinParts {
  const generated = generatedKey(host, given);
  const config = generated ? { ...given, ownership: { ...given.ownership, api_key: generated.key } } : given;
  const cache = { heads: config.cache.heads, revisionBytes: config.cache.revisionsMB * 1024 * 1024 };
  const shared = where.store;
  // Made here, not by the app, so shutdown can end open event streams and stop compile children.
  const live = createLiveHub();
  const compiler = createCompiler();
  return {
    open: () => (shared ? openSharedBinStore(shared, cache) : openBinStore(where.data ?? defaultDataFile('bins'), cache)),
    handler: (store, mockTokens) => {
      // Several instances on one store: followers on this one get what editors send to the others.
      if (store.relay) live.join(store.relay);
      return createBinHandler({ store, config, logger, live, compiler, mockTokens, ...(generated && { keyHint: KEY_HINT }) });
    },
    ...(config.ownership.api_key && { owner: ownerCheck(config) }),
    beforeClose: () => {
      live.close();
      compiler.close();
    },
    banner: (url, store) => banner(url, `${shared ? 'store' : 'data'} ${store.where}`, config, generated),
    ...(!isLoopback(host) && apiMode(config) === 'open' && {
      warning: `warning: listening on ${host} with anonymous writes on: anyone who can reach this machine can save bins`,
    }),
  };
}

export async function startBinServer(flags: ServeBinsFlags, given: BinConfig, settings: ServeBinsSettings): Promise<void> {
  const { port, data, store, allowedHosts } = settings;
  const logger = consoleLogger(flags.quiet);
  const parts = binParts(flags.host, given, { data, store }, logger);
  await serveUntilSignal({
    port,
    host: flags.host,
    allowedHosts,
    hostRefusal: (message) => ({ error: message }),
    open: parts.open,
    handler: parts.handler,
    beforeClose: parts.beforeClose,
    banner: flags.quiet ? undefined : parts.banner,
    log: logger.info,
  });
  if (parts.warning) logger.warn(parts.warning);
}

/** The editor's key dialog on a server whose key it made itself. No path: the page may be read by others. */
const KEY_HINT =
  'This server made its own key: open the address serve-bins printed when it started, which logs this browser in, ' +
  "or paste the key from the file api-key in snippetkit's data folder.";

/**
 * The key a server makes for itself: only where it would otherwise be read-only (no key, no anonymous
 * writes, reads open), only on a loopback address (nobody else can reach it to log in), and unless
 * ownership.generateKey is false. Explicit settings are left exactly as they are.
 */
function generatedKey(host: string, config: BinConfig): KeptKey | undefined {
  if (!config.ownership.generateKey || !isLoopback(host) || apiMode(config) !== 'read-only') return undefined;
  try {
    return keepGeneratedKey();
  } catch (err) {
    if (err instanceof KeyFileError) throw new CliError(err.message, EXIT.dataFile);
    throw err;
  }
}

function banner(url: string, where: string, config: BinConfig, generated: KeptKey | undefined): string {
  const mode = apiMode(config);
  const line = `snippetkit bins on ${chalk.bold(url)}  ${where}  `;
  if (generated) {
    // The URL logs a browser in (a session cookie, then a redirect to the same page without the key).
    const login = `${url}/?api_key=${generated.key}`;
    const lines = [
      line + chalk.green('saves need this server\'s own key; reads are open'),
      `  to save from a browser, open ${chalk.bold(login)}`,
      `  the key is in ${generated.file}; client commands (save, pull, template) on this machine use it`,
    ];
    if (generated.tightened) {
      lines.push(chalk.yellow(`  warning: ${generated.file} could be read by other users; it is now yours alone (delete it for a new key)`));
    }
    return lines.join('\n');
  }
  const modeText = {
    open: chalk.yellow('API open: anyone can read and write'),
    keyed: config.api.allowAnonymousRead
      ? chalk.green('API keyed: anyone can read bins, writes need the API key')
      : chalk.green(
          'Private: every bin (pages, panels, streams, API) needs the API key; browsers give it once with ?api_key=<key>',
        ),
    'read-only': chalk.yellow(
      'API read-only: set SNIPPETKIT_OWNERSHIP_API_KEY=<key> or SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE=true to allow saves' +
        (config.ownership.generateKey ? ' (a key of its own is made on a loopback address only)' : ''),
    ),
    closed: chalk.yellow('API closed: no reads or writes without a key, and no key is set'),
  }[mode];
  return line + modeText;
}

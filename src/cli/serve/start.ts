import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import chalk from 'chalk';
import { ENDPOINT_PREFIX, jointHandler, MOCKS_PREFIX } from '../../server/joint.js';
import { isLoopback } from '../../server/loopback.js';
import { mockGate, tokenRoute, type PrivateMocks } from '../../server/mock-gate.js';
import { createMockTokens, MOCK_TOKEN_HOURS, type MockTokens } from '../../server/mock-token.js';
import { CliError, EXIT } from '../common/errors.js';
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
  // Refused before the mocks' parts are made (files watched, a proxy): nothing to undo.
  const guard = settings.privateMocks ? privateMocks(bins.owner, mockSettings.cors) : undefined;
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
      jointHandler({
        bins: bins.handler(stores.bins, guard?.tokens),
        mocks: mocks.handler(stores.mocks),
        version: packageVersion(),
        privateMocks: guard,
      }),
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
            ...(guard ? [`  ${chalk.green(PRIVATE_LINE)}`] : []),
          ].join('\n'),
    log: logger.info,
  });
  if (bins.warning) logger.warn(bins.warning);
  if (!isLoopback(flags.host) && !guard) logger.warn(openMockWarning(flags.host));
}

const PRIVATE_LINE =
  "mocks private: the page, API and endpoints need the bins' key or their browser session; a bin's output page " +
  `opened with them carries a token for its endpoint calls (${MOCK_TOKEN_HOURS} hours, until a restart)`;

/** What a refusal says: the key itself is never in it. */
const REFUSAL =
  "these mocks are private: send the bin server's API key (Authorization: token KEY, or ?api_key=KEY), or log this " +
  'browser in once by opening /?api_key=KEY (the address snippetkit serve printed at start)';

/**
 * --private-mocks: the gate the joint handler runs before the mock server, and the tokens the bins'
 * output pages carry, both with one secret made now. Without a key there is nothing the owner could show.
 */
function privateMocks(owner: ((req: IncomingMessage) => boolean) | undefined, cors: boolean): PrivateMocks & { tokens: MockTokens } {
  if (!owner) {
    throw new CliError(
      '--private-mocks needs a key for the bins to ask for, and this server has none (no ownership.api_key, and no key ' +
        'of its own: --no-generated-key, ownership.generateKey false, anonymous writes on, or not on a loopback address); ' +
        'set SNIPPETKIT_OWNERSHIP_API_KEY=<key>',
      EXIT.usage,
    );
  }
  const tokens = createMockTokens();
  return { tokens, gate: mockGate({ owner, tokens, preflights: cors, message: REFUSAL }), tokenRoute: tokenRoute(tokens) };
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
}

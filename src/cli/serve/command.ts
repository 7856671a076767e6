import type { Command } from 'commander';
import { allowedHostOption } from '../common/options.js';
import { addBinConfigOptions } from '../serve-bins/command.js';
import { addMockOptions, addMockProxyOptions } from '../serve-mocks/command.js';
import { MOCK_TOKEN_HOURS } from '../../server/mock-token.js';
import type { ServeFlags } from './settings.js';

/** Declares `snippetkit serve`; the servers' code is loaded only when it runs. */
export function registerServe(program: Command): void {
  const command = program
    .command('serve')
    .description('start the playground: the bin server and the mock server on one port (mock page /mocks/, endpoints /endpoint/…)')
    .option('-p, --port <port>', 'the one port both answer on (env PORT; default 3000)')
    .option('-H, --host <host>', 'address to listen on', '127.0.0.1')
    .option('--bin-data <file>', "the bins' SQLite data file (env SNIPPETKIT_BIN_DATA; default in your data folder)")
    .option('--bin-store <url>', "the bins' shared store: postgres://… or redis://… (env SNIPPETKIT_BIN_STORE)")
    .option('--mock-data <file>', "the mocks' SQLite data file (env SNIPPETKIT_MOCK_DATA; default in your data folder)")
    .option('--mock-store <url>', "the mocks' shared store: postgres://… or redis://… (env SNIPPETKIT_MOCK_STORE)")
    .option(
      '--private-mocks',
      "the mock page, API and endpoints need the bins' key or browser session, as the bins' owner does (env SNIPPETKIT_PRIVATE_MOCKS)",
    );
  addBinConfigOptions(command, "the bin server's ");
  addMockOptions(command).addOption(
    allowedHostOption('SNIPPETKIT_ALLOWED_HOSTS or SNIPPETKIT_MOCK_ALLOWED_HOSTS'),
  );
  addMockProxyOptions(command)
    .option('-q, --quiet', 'print nothing but errors')
    .addHelpText(
      'after',
      `
The bins keep their routes (/, /api/…, /BIN/REV); the mocks answer at /endpoint/…, their page at /mocks/
and their management API at /mocks/api/…. Flags of serve-mocks keep their names and act on the mocks only
(--max-body, --cors-origin, --no-cors, --trust-proxy); the bins' limits and CORS are --config keys.
With --private-mocks, everything of the mocks needs the bins' key (Authorization: token KEY, ?api_key=KEY)
or a browser logged in with /?api_key=KEY; a bin's output page opened so carries a token (${MOCK_TOKEN_HOURS} hours) for its
own calls to /endpoint/…. Client commands send the key they know for the bins.

Examples:
  $ snippetkit serve                       # http://127.0.0.1:3000: the editor at /, the mock page at /mocks/
  $ snippetkit serve --port 8080 --bin-data ./bins.sqlite --mock-data ./mocks.sqlite
  $ snippetkit serve --dir mocks/          # mocks/users/list.yaml answers /endpoint/users/list
  $ snippetkit serve --db db.json --openapi api.yaml
  $ snippetkit serve --bin-store postgres://db.internal/snippetkit --mock-store redis://cache.internal:6379
  $ snippetkit serve --proxy https://api.example.com --record
  $ snippetkit serve --private-mocks       # the mocks are as private as saving bins: the key or its session
  $ SNIPPETKIT_SERVER=http://127.0.0.1:3000 snippetkit mock list   # client commands find the mocks under /mocks/`,
    )
    .action(async (flags: ServeFlags) => {
      // The flags and the config are checked before the servers are loaded: a mistake is answered in a blink.
      const { loadServeSettings } = await import('./settings.js');
      const settings = loadServeSettings(flags);
      const { startJointServer } = await import('./start.js');
      await startJointServer(flags, settings);
    });
}

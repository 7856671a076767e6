import type { Command } from 'commander';
import { allowedHostOption } from '../common/options.js';
import type { ServeBinsFlags } from './config.js';

/** Declares `snippetkit serve-bins`; the server code is loaded only when it runs. */
export function registerServeBins(program: Command): void {
  const command = program
    .command('serve-bins')
    .description('start the bin server: the JS Bin 4 REST API, editor and output pages')
    .option('-p, --port <port>', 'port to listen on (env PORT; default 3000)')
    .option('-H, --host <host>', 'address to listen on', '127.0.0.1')
    .option('-d, --data <file>', 'SQLite data file (env SNIPPETKIT_BIN_DATA; default in your data folder)')
    .option(
      '--store <url>',
      'shared store for several instances: postgres://user@host/db or redis://host:6379[?prefix=name:] (env SNIPPETKIT_BIN_STORE)',
    );
  addBinConfigOptions(command)
    .addOption(allowedHostOption('SNIPPETKIT_ALLOWED_HOSTS'))
    .option('-q, --quiet', 'print nothing but errors')
    .addHelpText(
      'after',
      `
Examples:
  $ snippetkit serve-bins                  # on 127.0.0.1, with a key of its own: open the URL it prints to save
  $ snippetkit serve-bins --port 8080 --data ./bins.sqlite
  $ snippetkit serve-bins --store postgres://snippetkit@db.internal/snippetkit
  $ SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE=true snippetkit serve-bins
  $ SNIPPETKIT_OWNERSHIP_API_KEY=secret snippetkit serve-bins`,
    )
    .action(async (flags: ServeBinsFlags) => {
      // The flags and the config are checked before the server is loaded: a mistake is answered in a blink.
      const { binConfigFromFlags, loadServeBinsSettings } = await import('./config.js');
      const config = binConfigFromFlags(flags);
      const settings = loadServeBinsSettings(flags);
      const { startBinServer } = await import('./start.js');
      await startBinServer(flags, config, settings);
    });
}

/** The bin server's config flags, declared once for serve-bins and `serve`. */
export function addBinConfigOptions(command: Command, whose = ''): Command {
  return command
    .option('-c, --config <file>', `${whose}JSON config merged over config.default.json (env SNIPPETKIT_<PATH> per key)`)
    .option(
      '--no-generated-key',
      'with no key configured, stay read-only instead of making a key on a loopback address (env SNIPPETKIT_OWNERSHIP_GENERATEKEY=false)',
    );
}

import { InvalidArgumentError, type Command } from 'commander';
import { withClientFlags } from './client-flags.js';
import { parseCount } from './options.js';

export type MockAddFlags = { status?: number; delay?: number; header: string[]; force?: boolean };

const collect = (value: string, previous: string[]) => [...previous, value];

function parseDelay(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError('must be a number of milliseconds');
  return n;
}

/** Declares `snippetkit mock ...`; their code loads only when they run. */
export function registerMockCommands(program: Command): void {
  const mock = program
    .command('mock')
    .description('register and inspect endpoints on a running mock server')
    .addHelpText('after', '\nExamples:\n  $ snippetkit mock add users users.json --status 200 --delay 250\n  $ snippetkit mock list\n  $ snippetkit mock log hook --follow');

  const load = () => import('./mock.js');

  withClientFlags(mock.command('add'), 'mock')
    .description('register an endpoint that answers FILE\'s JSON at /endpoint/NAME, and print its URL')
    .argument('<name>', 'endpoint name: letters, digits, . _ ~ -')
    .argument('<file>', 'JSON file with the data to answer (- for standard input)')
    .option('-s, --status <code>', 'HTTP status to answer with (default 200)', parseCount)
    .option('-d, --delay <ms>', 'hold each answer back this many milliseconds (default 0)', parseDelay)
    .option('-H, --header <header>', "response header 'Name: value' (repeatable)", collect, [])
    .option('-f, --force', 'replace an endpoint of that name')
    .addHelpText('after', "\nExamples:\n  $ snippetkit mock add users users.json\n  $ snippetkit mock add slow data.json --status 503 --delay 2000 --header 'Retry-After: 5'\n  $ echo '{\"ok\":true}' | snippetkit mock add health -")
    .action((name: string, file: string, flags: MockAddFlags, command: Command) => load().then((m) => m.mockAdd(name, file, flags, command)));

  withClientFlags(mock.command('list'), 'mock')
    .alias('ls')
    .description('list the endpoints with status, delay, hits and last update')
    .addHelpText('after', '\nExample:\n  $ snippetkit mock list --json')
    .action((_flags: unknown, command: Command) => load().then((m) => m.mockList(command)));

  withClientFlags(mock.command('get'), 'mock')
    .description('print one endpoint: its settings and data')
    .argument('<name>', 'endpoint name')
    .addHelpText('after', '\nExample:\n  $ snippetkit mock get users --json')
    .action((name: string, _flags: unknown, command: Command) => load().then((m) => m.mockGet(name, command)));

  withClientFlags(mock.command('rm'), 'mock')
    .alias('remove')
    .description('delete an endpoint')
    .argument('<name>', 'endpoint name')
    .addHelpText('after', '\nExample:\n  $ snippetkit mock rm users')
    .action((name: string, _flags: unknown, command: Command) => load().then((m) => m.mockRemove(name, command)));

  withClientFlags(mock.command('log'), 'mock')
    .description('print the requests an endpoint received, newest last')
    .argument('<name>', 'endpoint name')
    .option('-f, --follow', 'keep printing new requests as they arrive (Ctrl+C to stop)')
    .addHelpText('after', '\nExamples:\n  $ snippetkit mock log hook\n  $ snippetkit mock log hook --follow --json    # one JSON object per line')
    .action((name: string, flags: { follow?: boolean }, command: Command) => load().then((m) => m.mockLog(name, flags, command)));
}

import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { CliError, EXIT } from './common/errors.js';
import { registerBinCommands } from './bins/commands.js';
import { registerMockCommands } from './mocks/commands.js';
import { registerServeBins } from './serve-bins/command.js';
import { registerServeMocks } from './serve-mocks/command.js';
import { registerServe } from './serve/command.js';
import { safeLine } from './common/terminal-text.js';
import { packageFile } from '../server/package-files.js';

/** Builds the program; each command file only declares its flags and lazy-loads its work. */
export function createProgram(): Command {
  const program = new Command('snippetkit')
    .description('Local JS Bin-style snippet server and JSON mock server, with terminal clients for both')
    .version(packageVersion(), '-V, --version', 'print the version')
    .option('--debug', 'print stack traces of errors');
  registerServe(program);
  registerServeBins(program);
  registerBinCommands(program);
  registerServeMocks(program);
  registerMockCommands(program);
  return program;
}

/**
 * Every command, nested ones included, throws instead of exiting (so usage errors end with exit 2)
 * and words a usage error as one line that points at its help, rather than printing the whole help.
 */
function configureErrors(command: Command, path: string): void {
  command.exitOverride().configureOutput({
    outputError: (text, write) =>
      write(`snippetkit: ${text.trim().replace(/^error: /, '')} (see \`${path} --help\`)\n`),
  });
  for (const sub of command.commands) configureErrors(sub, `${path} ${sub.name()}`);
}

/** Read at run time: one small file, so start-up stays fast and the version has one home. */
function packageVersion(): string {
  const text = readFileSync(packageFile('package.json'), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

export async function main(argv: string[]): Promise<void> {
  // A reader that stops early (`snippetkit --help | head`) closes the pipe: that ends the output, not in a crash.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  const program = createProgram();
  configureErrors(program, 'snippetkit');
  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.exitCode = handleError(err, argv.includes('--debug'));
  }
}

function handleError(err: unknown, debug: boolean): number {
  if (err instanceof InvalidArgumentError) {
    process.stderr.write(`snippetkit: ${err.message}\n`);
    return EXIT.usage;
  }
  // InvalidArgumentError is a CommanderError too, but one thrown by our own checks: printed above
  if (err instanceof CommanderError) {
    // commander already printed the message; --help and --version end here with code 0
    return err.exitCode === 0 ? 0 : EXIT.usage;
  }
  if (err instanceof CliError) {
    // messages quote servers and files: one line, control characters shown escaped
    process.stderr.write(`snippetkit: ${safeLine(err.message)}\n`);
    for (const detail of err.details) process.stderr.write(`  ${safeLine(detail)}\n`);
    if (debug) process.stderr.write(`${err.stack}\n`);
    return err.exitCode;
  }
  const e = err as Error;
  process.stderr.write(`snippetkit: ${safeLine(e?.message ?? String(err))}\n`);
  if (debug) process.stderr.write(`${e?.stack}\n`);
  else process.stderr.write('snippetkit: run again with --debug for details\n');
  return EXIT.failure;
}

import chalk from 'chalk';
import type { Logger } from '../../server/logger.js';

// chalk ignores NO_COLOR (its maintainers declined it), so switch it off here.
if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') chalk.level = 0;

/** Server messages on stderr, so stdout keeps only the start-up line; quiet keeps errors only. */
export function consoleLogger(quiet = false): Logger {
  const write = (text: string) => process.stderr.write(`${text}\n`);
  return {
    info: (message) => {
      if (!quiet) write(message);
    },
    warn: (message) => {
      if (!quiet) write(chalk.yellow(message));
    },
    error: (message) => write(chalk.red(message)),
  };
}

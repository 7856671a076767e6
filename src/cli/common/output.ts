import chalk from 'chalk';
import { safeLines } from './terminal-text.js';

export type OutputFlags = { json?: boolean; quiet?: boolean };

// chalk already drops colour when stdout is not a terminal; it ignores NO_COLOR (its maintainers declined it).
if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') chalk.level = 0;

/**
 * What a client command prints. The result goes to stdout (as JSON with --json, nothing else there);
 * notes on what it did go to stderr, and not at all with --quiet or --json.
 */
export function createOutput(flags: OutputFlags) {
  return {
    json: Boolean(flags.json),
    note(message: string): void {
      // notes quote server answers (names, summaries): shown escaped like every network text
      if (!flags.quiet && !flags.json) process.stderr.write(`${chalk.dim(safeLines(message))}\n`);
    },
    /** The command's answer: `text` for people, `value` for --json. */
    result(text: string, value: unknown): void {
      if (flags.json) process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
      else if (text !== '') process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    },
  };
}

export type Output = ReturnType<typeof createOutput>;

/** Rows as aligned columns, the header dimmed. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [chalk.dim(line(header)), ...rows.map(line)].join('\n');
}

export { chalk };

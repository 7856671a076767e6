/**
 * A failure the user can act on: printed as one line on stderr, the process exits with `exitCode`.
 * Exit codes are documented in the README.
 */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export const EXIT = {
  /** Anything unexpected. */
  failure: 1,
  /** Bad flags or arguments. */
  usage: 2,
  /** The data file cannot be used (in use, unreadable, not SQLite). */
  dataFile: 3,
} as const;

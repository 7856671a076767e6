/**
 * A failure the user can act on: printed as one line on stderr, the process exits with `exitCode`.
 * Exit codes are documented in the README.
 */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
    /** More lines, one item each (every refused record of an import, say), printed under the message. */
    readonly details: readonly string[] = [],
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
  /** The server cannot be reached. */
  unreachable: 4,
  /** The server wants an API key, or refused the one given. */
  auth: 5,
  /** No such bin, revision or mock. */
  notFound: 6,
  /** A local file is missing, unreadable, not valid JSON, or would be overwritten. */
  file: 7,
  /** The server answered something that is not the API we expect (or failed with a 5xx). */
  badServer: 8,
  /** The server refused the input (a 4xx with its message), e.g. a mock name already in use. */
  refused: 9,
} as const;

const FILE_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder',
  ENOTDIR: 'part of the path is a file, not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EEXIST: 'it already exists',
};

/** Why a file operation failed, in words rather than an errno code. */
export function fileErrorReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return (code && FILE_ERRORS[code]) ?? code ?? (err as Error).message;
}

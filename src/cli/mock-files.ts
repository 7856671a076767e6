import { extname } from 'node:path';
import { parse, stringify, YAMLParseError } from 'yaml';
import { describeJsonError } from '../shared/json-check.js';
import { CliError, EXIT } from './errors.js';

/** Endpoint records as files: the formats `mock export` writes and `mock import` reads. */
export type FileFormat = 'json' | 'yaml';

export const FORMATS: readonly FileFormat[] = ['json', 'yaml'];

/** The format a file name says, or undefined when its extension is neither. */
export function formatOf(path: string): FileFormat | undefined {
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  return undefined;
}

/**
 * Stable text, so exporting the same endpoints twice gives the same bytes: keys in the given order,
 * 2-space indent, no line folding, no anchors, a trailing newline.
 */
export function formatRecords(value: unknown, format: FileFormat): string {
  if (format === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  return stringify(value, { indent: 2, lineWidth: 0, aliasDuplicateObjects: false });
}

/** Parses a record file by its format; a syntax error names the file, line and column. */
export function parseRecordFile(text: string, path: string, format: FileFormat): unknown {
  if (format === 'json') {
    const problem = describeJsonError(text);
    if (problem !== undefined) throw new CliError(`${path} is not valid JSON: ${problem}`, EXIT.file);
    return JSON.parse(text);
  }
  try {
    return parse(text);
  } catch (err) {
    if (!(err instanceof YAMLParseError)) throw err;
    // its message ends with a quote of the lines around the error: the first line is what went wrong
    const what = err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:$/, '');
    const at = err.linePos ? ` at line ${err.linePos[0].line}, column ${err.linePos[0].col}` : '';
    throw new CliError(`${path} is not valid YAML: ${what}${at}`, EXIT.file);
  }
}

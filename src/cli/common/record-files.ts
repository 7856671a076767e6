import { parseRecordText, RecordTextError, yaml, type FileFormat } from '../../mocks/record/text.js';
import { CliError, EXIT } from './errors.js';

export { formatOf, FORMATS, type FileFormat } from '../../mocks/record/text.js';

/**
 * Stable text, so exporting the same endpoints twice gives the same bytes: keys in the given order,
 * 2-space indent, no line folding, no anchors, a trailing newline.
 */
export function formatRecords(value: unknown, format: FileFormat): string {
  if (format === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  return yaml().stringify(value, { indent: 2, lineWidth: 0, aliasDuplicateObjects: false });
}

/** Parses a record file by its format; a syntax error names the file, line and column. */
export function parseRecordFile(text: string, path: string, format: FileFormat): unknown {
  try {
    return parseRecordText(text, format);
  } catch (err) {
    if (!(err instanceof RecordTextError)) throw err;
    const at = err.place ? ` at line ${err.place.line}, column ${err.place.column}` : '';
    throw new CliError(`${path} is ${err.message}${at}`, EXIT.file);
  }
}

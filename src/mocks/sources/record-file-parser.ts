import { isJsonObject } from '../../http/json-body.js';
import { formatOf, parseRecordText, placeOf, RecordTextError } from '../record/text.js';
import type { SourceParser } from './loader.js';

/**
 * Parses a record file of a watched folder: one record, or a list of them. A lone record without
 * a name is named after the file (`users/list` for users/list.yaml); in a list each record names itself.
 */
export function recordFileParser(defaultName: string): SourceParser {
  return (file, text) => {
    const value = parseRecordText(text, formatOf(file) ?? 'yaml');
    if (Array.isArray(value)) return { records: value, placeOf: (index, field) => placeOf(text, [index], field) };
    if (!isJsonObject(value)) {
      throw new RecordTextError('the file must hold one endpoint record (an object) or a list of them', {
        line: 1,
        column: 1,
      });
    }
    const record = value.name === undefined ? { name: defaultName, ...value } : value;
    return { records: [record], placeOf: (_index, field) => placeOf(text, [], field) };
  };
}

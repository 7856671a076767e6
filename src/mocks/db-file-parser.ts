import { isJsonObject } from '../http/json-body.js';
import { formatOf, parseRecordText, placeOf, RecordTextError } from './record-text.js';
import type { SourceParser } from './source-loader.js';

/**
 * Parses a json-server database (`db.json`): each top-level key is a collection endpoint named
 * after it, its value the collection's data. `keys` is told the keys in file order (to write the
 * file back in that order). A validation error's place is the key's value in the file.
 */
export function dbFileParser(keys?: (names: string[]) => void): SourceParser {
  return (file, text) => {
    const db = parseRecordText(text, formatOf(file) ?? 'json');
    if (!isJsonObject(db)) {
      throw new RecordTextError('a database must be a JSON object: each key a collection', { line: 1, column: 1 });
    }
    const names = Object.keys(db);
    keys?.(names);
    return {
      records: names.map((name) => ({ name, data: db[name], collection: true })),
      placeOf: (index, field) => {
        // `data[0].id` is at <key>[0].id; any other field (the name) is the key's own place.
        const inData = field?.startsWith('data') ? field.slice('data'.length).replace(/^\./, '') : undefined;
        return placeOf(text, [names[index]!], inData);
      },
    };
  };
}

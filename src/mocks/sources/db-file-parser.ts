import { isJsonObject } from '../../http/json-body.js';
import { formatOf, parseRecordText, placeOf, RecordTextError } from '../record/text.js';
import type { SourceParser } from './loader.js';

export const NOT_A_DB = 'a database must be a JSON object: each key a collection';

/** A json-server database's collection records (key = name, value = data), or undefined when it is not an object. */
export function dbRecords(db: unknown): { name: string; data: unknown; collection: true }[] | undefined {
  if (!isJsonObject(db)) return undefined;
  return Object.entries(db).map(([name, data]) => ({ name, data, collection: true }));
}

/**
 * Parses a json-server database (`db.json`): each top-level key is a collection endpoint named
 * after it, its value the collection's data. `keys` is told the keys in file order (to write the
 * file back in that order). A validation error's place is the key's value in the file.
 */
export function dbFileParser(keys?: (names: string[]) => void): SourceParser {
  return (file, text) => {
    const records = dbRecords(parseRecordText(text, formatOf(file) ?? 'json'));
    if (!records) throw new RecordTextError(NOT_A_DB, { line: 1, column: 1 });
    const names = records.map((record) => record.name);
    keys?.(names);
    return {
      records,
      placeOf: (index, field) => {
        // `data[0].id` is at <key>[0].id; any other field (the name) is the key's own place.
        const inData = field?.startsWith('data') ? field.slice('data'.length).replace(/^\./, '') : undefined;
        return placeOf(text, [names[index]!], inData);
      },
    };
  };
}

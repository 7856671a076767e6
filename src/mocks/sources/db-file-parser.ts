import { isJsonObject } from '../../http/json-body.js';
import { formatOf, parseRecordText, placeOf, RecordTextError } from '../record/text.js';
import type { SourceParser } from './loader.js';

export const NOT_A_DB = 'a database must be a JSON object: each key a collection';

/** The key json-server's own tools write to name the file's JSON schema; json-server 0.17 serves no route for it. */
export const SCHEMA_KEY = '$schema';

/**
 * A json-server database's collection records (key = name, value = data), `$schema` left out, or
 * undefined when it is not an object.
 */
export function dbRecords(db: unknown): { name: string; data: unknown; collection: true }[] | undefined {
  if (!isJsonObject(db)) return undefined;
  return Object.entries(db)
    .filter(([name]) => name !== SCHEMA_KEY)
    .map(([name, data]) => ({ name, data, collection: true }));
}

/**
 * Parses a json-server database (`db.json`): each top-level key is a collection endpoint named
 * after it, its value the collection's data. Each key stands alone: one that cannot be served is
 * reported and the others are. `keys` is told the whole database, keys in file order (to write the
 * file back in that order, with what is not served kept as it was). A validation error's place is
 * the key's value in the file.
 */
export function dbFileParser(keys?: (db: Record<string, unknown>) => void): SourceParser {
  return (file, text) => {
    const db = parseRecordText(text, formatOf(file) ?? 'json');
    const records = dbRecords(db);
    if (!records || !isJsonObject(db)) throw new RecordTextError(NOT_A_DB, { line: 1, column: 1 });
    const names = records.map((record) => record.name);
    keys?.(db);
    return {
      records,
      partial: true,
      placeOf: (index, field) => {
        // `data[0].id` is at <key>[0].id; any other field (the name) is the key's own place.
        const inData = field?.startsWith('data') ? field.slice('data'.length).replace(/^\./, '') : undefined;
        return placeOf(text, [names[index]!], inData);
      },
    };
  };
}

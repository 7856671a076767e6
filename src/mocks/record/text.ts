import { createRequire } from 'node:module';
import { extname } from 'node:path';
import type * as Yaml from 'yaml';
import type { Node } from 'yaml';
import { findJsonError, lineColumn } from '../../shared/json-check.js';

/** Endpoint records as files: JSON or YAML, told apart by the file's extension. */
export type FileFormat = 'json' | 'yaml';

export const FORMATS: readonly FileFormat[] = ['json', 'yaml'];

/** The format a file name says, or undefined when its extension is neither. */
export function formatOf(path: string): FileFormat | undefined {
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  return undefined;
}

/** 1-based, as editors count. */
export type Place = { line: number; column: number };

let loaded: typeof Yaml | undefined;

/** The YAML library, loaded with the first YAML text (or place in a record file) it is asked for: a server reading none never loads it. */
export function yaml(): typeof Yaml {
  return (loaded ??= createRequire(import.meta.url)('yaml') as typeof Yaml);
}

/** A record file that does not parse: what went wrong, and where. */
export class RecordTextError extends Error {
  override name = 'RecordTextError';
  constructor(
    message: string,
    readonly place: Place | undefined,
  ) {
    super(message);
  }
}

/** Parses a record file's text by its format; a syntax error says where it is. */
export function parseRecordText(text: string, format: FileFormat): unknown {
  if (format === 'json') {
    const error = findJsonError(text);
    if (error) throw new RecordTextError(`not valid JSON: ${error.message}`, lineColumn(text, error.pos));
    return JSON.parse(text);
  }
  try {
    return yaml().parse(text);
  } catch (err) {
    if (!(err instanceof yaml().YAMLParseError)) throw err;
    // its message ends with a quote of the lines around the error: the first line is what went wrong
    const what = err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:$/, '');
    const place = err.linePos ? { line: err.linePos[0].line, column: err.linePos[0].col } : undefined;
    throw new RecordTextError(`not valid YAML: ${what}`, place);
  }
}

/**
 * Where a field of a parsed record file is written: `at` leads to the record (its index when the
 * file holds a list), `field` is a validation error's field (`responses[1].delay.min`). JSON is
 * YAML 1.2, so one parser finds places in both. The nearest written ancestor when the field is missing.
 */
export function placeOf(text: string, at: (string | number)[], field: string | undefined): Place | undefined {
  const path = [...at, ...fieldPath(field ?? '')];
  let node: Node | null | undefined = yaml().parseDocument(text).contents;
  let found = node;
  for (const key of path) {
    if (yaml().isMap(node)) node = node.get(key, true) as Node | undefined;
    else if (yaml().isSeq(node) && typeof key === 'number') node = node.get(key, true) as Node | undefined;
    else node = undefined;
    if (!node) break;
    found = node;
  }
  const pair = found?.range;
  return pair ? lineColumn(text, pair[0]) : undefined;
}

/** `responses[1].delay.min` as ['responses', 1, 'delay', 'min']. */
function fieldPath(field: string): (string | number)[] {
  const path: (string | number)[] = [];
  for (const part of field.split('.')) {
    const match = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) return path;
    if (match[1]) path.push(match[1]);
    for (const index of match[2]!.matchAll(/\[(\d+)\]/g)) path.push(Number(index[1]));
  }
  return path;
}

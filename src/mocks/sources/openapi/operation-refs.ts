import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { FileRefused, readGatedFile, type FileGate } from '../../../gates/file-gate.js';
import { anchorRefs, RefRefused } from './anchor-refs.js';
import { shieldExampleRefs } from './example-refs.js';

/** The operations of a path item, by their keys. */
export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Replaces each operation given as a `$ref` to another file (DigitalOcean's description gives every
 * operation so) by that file's content, read through the Files gate. The parser would resolve it,
 * but leaves one it deems circular as a bare `$ref`, which then fails validation and with it the whole
 * document. An operation that cannot be read is removed, and `skipped` gets a line naming its place.
 * Runs after anchorRefs: a relative `$ref` is a file: URL by then.
 */
export function inlineOperationRefs(document: unknown, gate: FileGate, skipped: string[]): void {
  const paths = (document as { paths?: unknown }).paths;
  if (typeof paths !== 'object' || paths === null) return;
  for (const [template, item] of Object.entries(paths)) {
    if (typeof item !== 'object' || item === null) continue;
    const operations = item as Record<string, unknown>;
    for (const method of METHODS) {
      const ref = (operations[method] as { $ref?: unknown } | undefined)?.$ref;
      if (typeof ref !== 'string' || !/^file:/i.test(ref)) continue;
      const pointer = operationPointer(template, method);
      try {
        operations[method] = readOperation(ref, gate);
      } catch (err) {
        if (!(err instanceof OperationUnread)) throw err;
        delete operations[method];
        skipped.push(`${method.toUpperCase()} ${template}: ${err.message} (${pointer})`);
      }
    }
  }
}

class OperationUnread extends Error {}

function readOperation(ref: string, gate: FileGate): unknown {
  const [url = '', fragment = ''] = ref.split('#', 2);
  const file = fileURLToPath(url);
  let text: string;
  try {
    text = readGatedFile(file, gate).toString('utf8');
  } catch (err) {
    if (err instanceof FileRefused) throw new OperationUnread(`$ref to ${file}: ${err.reason}`);
    throw err;
  }
  let value: unknown;
  try {
    value = parse(text, { maxAliasCount: 1000 });
  } catch (err) {
    throw new OperationUnread(`$ref to ${file}: it does not parse: ${(err as Error).message.split('\n')[0]}`);
  }
  for (const key of fragment.split('/').filter((key) => key !== '')) {
    const name = decodeURIComponent(key).replaceAll('~1', '/').replaceAll('~0', '~');
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new OperationUnread(`$ref to ${ref.replace(/^file:\/\//, '')} is not an operation object`);
  }
  shieldExampleRefs(value);
  try {
    anchorRefs(file, value, { local: true, at: `${file}#${fragment}` });
  } catch (err) {
    if (err instanceof RefRefused) throw new OperationUnread(err.message);
    throw err;
  }
  return value;
}

/** Where an operation is in its document, as a JSON pointer: `#/paths/~1users~1{id}/get`. */
export function operationPointer(template: string, method: string): string {
  return `#/paths/${escape(template)}/${method}`;
}

function escape(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * Example data is free-form: a `$ref` key inside it (GitHub's description has one, in an example of a
 * git reference) is data, not a reference, yet the parser would try to resolve it and refuse the whole
 * document. Before parsing, such keys are renamed to SHIELDED; after, they get their name back.
 */
const SHIELDED = '\u0000$ref';

/**
 * Renames `$ref` keys inside example values: an `example`'s value, an Example Object's `value`, a
 * Swagger 2 response's `examples` by media type, and a 3.1 schema's `examples` list. A schema property
 * named `example` (under `properties`) is a schema, and keeps its `$ref`s.
 */
export function shieldExampleRefs(document: unknown): void {
  const walk = (node: unknown, parentKey: string | undefined): void => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) return node.forEach((item) => walk(item, undefined));
    const record = node as Record<string, unknown>;
    for (const [key, child] of Object.entries(record)) {
      if (parentKey === 'properties') walk(child, key);
      else if (key === 'example') rename(child);
      else if (key === 'examples' && Array.isArray(child)) rename(child);
      else if (key === 'examples' && typeof child === 'object' && child !== null) {
        for (const [name, entry] of Object.entries(child)) {
          // A media type names Swagger 2 data; an Example Object keeps its own `$ref` (to components).
          if (name.includes('/')) rename(entry);
          else if (typeof entry === 'object' && entry !== null && 'value' in entry) rename(entry.value);
        }
      } else walk(child, key);
    }
  };
  walk(document, undefined);
}

/** Gives shielded keys their `$ref` name back, in a dereferenced document (shared objects visited once). */
export function restoreExampleRefs(document: unknown): void {
  const seen = new Set<object>();
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) return node.forEach(walk);
    const record = node as Record<string, unknown>;
    if (SHIELDED in record) renameKey(record, SHIELDED, '$ref');
    Object.values(record).forEach(walk);
  };
  walk(document);
}

function rename(data: unknown): void {
  if (typeof data !== 'object' || data === null) return;
  if (Array.isArray(data)) return data.forEach(rename);
  const record = data as Record<string, unknown>;
  if ('$ref' in record) renameKey(record, '$ref', SHIELDED);
  Object.values(record).forEach(rename);
}

/** Renames a key in place, keeping the order of the others (an example is answered as written). */
function renameKey(record: Record<string, unknown>, from: string, to: string): void {
  const entries = Object.entries(record).map(([key, value]) => [key === from ? to : key, value] as const);
  for (const key of Object.keys(record)) delete record[key];
  Object.assign(record, Object.fromEntries(entries));
}

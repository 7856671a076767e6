import { MAX_SCHEMA_DEPTH } from '../../record/expects/expects.js';

type Json = Record<string, unknown>;

// A dereferenced document shares one object wherever a `$ref` named it: walked as a tree, a schema can
// be far bigger than its text. Past this many nodes the schema is not kept (that part goes unchecked).
const MAX_NODES = 4000;

/**
 * An OpenAPI schema as JSON Schema 2020-12, for checking requests: 3.0's `nullable` and boolean
 * `exclusiveMinimum`/`exclusiveMaximum`, Swagger's `type: file`, and `readOnly` properties (which a
 * request need not send) made into their 2020-12 terms; a `$ref` left by a circular reference accepts
 * anything there. Undefined when the schema is too deep or too big to keep in a record.
 */
export function requestSchema(schema: unknown, openapi31: boolean): Json | undefined {
  let nodes = 0;
  const walk = (node: unknown, depth: number): unknown => {
    if (++nodes > MAX_NODES || depth > MAX_SCHEMA_DEPTH) throw new TooBig();
    if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1));
    if (typeof node !== 'object' || node === null) return node;
    const given = node as Json;
    // Circular references stay `$ref`s into the document, which a record does not carry.
    if (typeof given.$ref === 'string') return {};
    const entries: [string, unknown][] = [];
    for (const [key, value] of Object.entries(given)) {
      // Data, not schemas: copied as they are (a key `$ref` inside an example is data).
      if (key === 'example' || key === 'examples' || key === 'default' || key === 'enum' || key === 'const') {
        if (key === 'enum' || key === 'const') entries.push([key, value]);
        continue;
      }
      if (key === 'xml' || key === 'externalDocs' || key === 'discriminator' || key.startsWith('x-')) continue;
      entries.push([key, key === 'properties' || key === 'patternProperties' || key === '$defs' ? mapOf(value, depth) : walk(value, depth + 1)]);
    }
    const out = Object.fromEntries(entries) as Json;
    return openapi31 ? out : converted(out, given);
  };
  // The map is a level of the JSON, its schemas the next.
  const mapOf = (value: unknown, depth: number) =>
    typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, walk(sub, depth + 2)])) : value;
  try {
    const out = walk(schema, 1);
    return typeof out === 'object' && out !== null && !Array.isArray(out) ? withoutReadOnlyRequired(out as Json) : undefined;
  } catch (err) {
    if (err instanceof TooBig) return undefined;
    throw err;
  }
}

class TooBig extends Error {}

/** 3.0 and Swagger 2.0 keywords (JSON Schema draft 4's, extended) in draft 2020-12's terms. */
function converted(out: Json, given: Json): Json {
  if (given.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  delete out.nullable;
  if (out.type === 'file') delete out.type;
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else delete out[flag];
  }
  return out;
}

/** A request leaves out what the server makes (readOnly): such properties are no longer required, at any depth. */
function withoutReadOnlyRequired(schema: Json): Json {
  const seen = new Set<object>();
  const visit = (node: unknown) => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    const object = node as Json;
    const properties = object.properties as Record<string, Json> | undefined;
    if (Array.isArray(object.required) && properties && typeof properties === 'object') {
      object.required = object.required.filter((name) => !(properties[name as string] as Json | undefined)?.readOnly);
    }
    for (const value of Object.values(object)) visit(value);
  };
  visit(schema);
  return schema;
}

import { sampleNumber, sampleString } from './sample-string.js';

type Json = Record<string, unknown>;

// Depth to which optional properties are sampled; below it only what the schema requires.
const RICH_DEPTH = 10;
// Values one sample may build with optional content; past it, only what is required.
const RICH_NODES = 4_000;
// Values one sample may build at all; past it (a hostile or endless schema) an empty value of the type.
const MAX_NODES = 40_000;
// Nesting past which a value is left empty of its type: a chain of required self-references never ends.
const MAX_DEPTH = 64;
// Items made for a `minItems` (or properties for a `minProperties`): a larger one is not met.
const MAX_ITEMS = 64;
// `$ref` hops followed to reach a schema.
const MAX_HOPS = 32;
// Values all the samples of one document may build (Stripe's description takes about 1,000,000):
// past it, every sample is an empty value of its type, so a document of many operations each
// answering a large schema stays bounded in load time and in the memory its records take.
const DOCUMENT_NODES = 2_000_000;

// allOf/oneOf merges nested without a property or item between them (`A: { oneOf: [A] }` would never end).
const MAX_MERGES = 16;
// allOf members one merge reads (`A: { allOf: [A, A, ...] }` would multiply at every level).
const MAX_MEMBERS = 1_000;

type Walk = { spec: Json; nodes: number; limit: number; merges: number };

// What each document's samples have built so far, by its dereferenced document.
const spentBy = new WeakMap<Json, number>();

/**
 * A JSON value for `schema` (of a dereferenced document; `spec` holds what its circular `$ref`s point
 * at) that the schema accepts: the schema's own `example` (or `examples`, `default`) where it has one,
 * else built from its keywords: every property to RICH_DEPTH, below it and through self-references
 * only the required ones (never `{}` or `null` where the schema asks for more), `minItems` items,
 * `format`s and `pattern`s honoured, `allOf` members (their examples included) merged, the first
 * `oneOf`/`anyOf` choice, `writeOnly` properties left out. Bounded: at most MAX_NODES values, and
 * DOCUMENT_NODES for all the samples of `spec`'s document.
 */
export function sampleJson(schema: unknown, spec: Json): unknown {
  const spent = spentBy.get(spec) ?? 0;
  const walk = { spec, nodes: 0, limit: Math.min(MAX_NODES, Math.max(0, DOCUMENT_NODES - spent)), merges: 0 };
  const value = sample(schema, walk, 0, [], 0);
  spentBy.set(spec, spent + walk.nodes);
  return value;
}

/** `leaner`: the schema this one is merged from is sampled with only what it requires. */
function sample(given: unknown, walk: Walk, depth: number, refs: string[], variant: number, leaner = false): unknown {
  walk.nodes++;
  const [schema, ref] = resolve(given, walk.spec);
  // A self-reference is sampled again below itself, with only what it requires.
  const again = ref !== undefined && refs.includes(ref);
  const lean = leaner || again || depth > RICH_DEPTH || walk.nodes > RICH_NODES;
  if (depth > MAX_DEPTH || walk.nodes > walk.limit) return emptyOf(typeOf(schema));
  // The refs being sampled, outermost first: the one stack of the whole sample, pushed and popped here.
  if (ref === undefined || again) return sampleResolved(schema, walk, depth, refs, variant, lean);
  refs.push(ref);
  try {
    return sampleResolved(schema, walk, depth, refs, variant, lean);
  } finally {
    refs.pop();
  }
}

function sampleResolved(schema: Json, walk: Walk, depth: number, refs: string[], variant: number, lean: boolean): unknown {

  const own = ownExample(schema, variant);
  if (own !== undefined) return own;
  const choices = (Array.isArray(schema.oneOf) && schema.oneOf.length > 0 ? schema.oneOf : schema.anyOf) as unknown[] | undefined;
  if (Array.isArray(choices) && choices.length > 0) {
    const { oneOf: _o, anyOf: _a, ...rest } = schema;
    const choice = choices.find((member) => typeOf(resolve(member, walk.spec)[0]) !== 'null') ?? choices[0];
    // The choice with what the schema says beside it (`properties` next to a `oneOf`).
    const members = [...(Array.isArray(rest.allOf) ? rest.allOf : []), choice];
    return merged(walk, schema, () => sample({ ...rest, allOf: members }, walk, depth, refs, variant, lean));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    const { flat, examples } = flatten(schema, walk.spec);
    const value = merged(walk, schema, () => sample(flat, walk, depth, refs, variant, lean));
    // Members' own examples: objects merged over the sample, else the first one stands for the value.
    const objects = examples.filter(isPlainObject);
    if (isPlainObject(value)) return objects.reduce<Json>((merged, example) => mergeDeep(merged, example), value);
    return ownExample(flat, variant) === undefined && examples.length > 0 ? examples[0] : value;
  }
  const type = typeOf(schema);
  switch (type) {
    case 'object':
      return below(walk, () => object(schema, walk, depth, refs, lean));
    case 'array':
      return below(walk, () => array(schema, walk, depth, refs, lean));
    case 'string':
      return sampleString(schema, variant);
    case 'number':
    case 'integer':
      return sampleNumber(schema, type, variant);
    case 'boolean':
      return true;
    default:
      return null;
  }
}

/** What an object's properties or an array's items are: merges below them count afresh. */
function below<T>(walk: Walk, make: () => T): T {
  const outer = walk.merges;
  walk.merges = 0;
  try {
    return make();
  } finally {
    walk.merges = outer;
  }
}

/** A merge's sample, or an empty value when merges nest past MAX_MERGES. */
function merged(walk: Walk, schema: Json, make: () => unknown): unknown {
  if (walk.merges >= MAX_MERGES) return emptyOf(typeOf(schema));
  walk.merges++;
  try {
    return make();
  } finally {
    walk.merges--;
  }
}

// allOf members merged into one schema at most this deep (an allOf inside a member's allOf...).
const MAX_MERGE = 8;

/**
 * An `allOf` as one schema: every member's properties (a property several members describe must
 * meet them all) and required names, the other keywords from the first that has them; and the
 * members' own examples, apart.
 */
function flatten(schema: Json, spec: Json): { flat: Json; examples: unknown[] } {
  const flat: Json = {};
  const properties = new Map<string, unknown[]>();
  const required = new Set<string>();
  const examples: unknown[] = [];
  let members = 0;
  const add = (member: Json, level: number) => {
    if (++members > MAX_MEMBERS) return;
    const { allOf, properties: own, required: names, example, examples: listed, ...rest } = member;
    if (level > 0) {
      const given = example ?? (Array.isArray(listed) ? listed[0] : undefined);
      if (given !== undefined) examples.push(given);
    }
    for (const [key, value] of Object.entries(rest)) if (!(key in flat) && key !== '$ref') flat[key] = value;
    for (const [name, property] of Object.entries(asObject(own))) properties.set(name, [...(properties.get(name) ?? []), property]);
    if (Array.isArray(names)) for (const name of names) if (typeof name === 'string') required.add(name);
    if (Array.isArray(allOf) && level < MAX_MERGE) for (const next of allOf) add(resolve(next, spec)[0], level + 1);
  };
  add(schema, 0);
  if (properties.size > 0) {
    flat.properties = Object.fromEntries([...properties].map(([name, list]) => [name, list.length === 1 ? list[0] : { allOf: list }]));
  }
  if (required.size > 0) flat.required = [...required];
  return { flat, examples };
}

function object(schema: Json, walk: Walk, depth: number, refs: string[], lean: boolean): Json {
  const properties = asObject(schema.properties);
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((n) => typeof n === 'string') : []);
  const extra = typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null ? schema.additionalProperties : undefined;
  const out: Json = {};
  for (const [name, property] of Object.entries(properties)) {
    if (lean && !required.has(name)) continue;
    if (isWriteOnly(property, walk.spec)) continue;
    out[name] = sample(property, walk, depth + 1, refs, 0);
  }
  // Required names the properties do not describe take the additional properties' schema, else any value.
  for (const name of required) if (!(name in out) && !(name in properties)) out[name] = extra ? sample(extra, walk, depth + 1, refs, 0) : 'string';
  const least = Math.min(Number(schema.minProperties) || 0, MAX_ITEMS);
  const wanted = extra && !lean ? Math.max(least, 1) : least;
  for (let n = 1; Object.keys(out).length < wanted && n <= MAX_ITEMS; n++) {
    if (!(`property${n}` in out)) out[`property${n}`] = extra ? sample(extra, walk, depth + 1, refs, n - 1) : 'string';
  }
  return out;
}

function array(schema: Json, walk: Walk, depth: number, refs: string[], lean: boolean): unknown[] {
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
  const items = Array.isArray(schema.items) ? undefined : (schema.items ?? schema.contains);
  const least = Number(schema.minItems) || 0;
  const most = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
  let count = Math.min(Math.max(least, lean ? 0 : 1, prefix.length), most, MAX_ITEMS);
  if (items === undefined || items === false) count = Math.min(count, prefix.length);
  // Items differ by `variant` where they must be unique (an enum's next value, a number one higher).
  return Array.from({ length: count }, (_, i) =>
    sample(i < prefix.length ? prefix[i] : (items ?? {}), walk, depth + 1, refs, schema.uniqueItems === true ? i : 0),
  );
}

/**
 * The schema's own sample value: `const`, `example`, the first `examples`, `default`, an `enum` value.
 * An example or default of another type than the schema's is passed over (OpenAI's description has a
 * `default: null` on an object that may not be null, and a JSON text as the example of an object).
 */
function ownExample(schema: Json, variant: number): unknown {
  if (schema.const !== undefined) return schema.const;
  const listed = Array.isArray(schema.examples) ? schema.examples : [];
  for (const given of [schema.example, ...listed, schema.default]) if (given !== undefined && fits(given, schema)) return given;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const values = schema.enum.filter((value) => value !== null);
    return values.length > 0 ? values[variant % values.length] : null;
  }
  return undefined;
}

/** Whether `value` is of the schema's `type` (any value when it names none; null when `nullable`). */
function fits(value: unknown, schema: Json): boolean {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t) => typeof t === 'string');
  if (types.length === 0) return true;
  if (value === null) return types.includes('null') || schema.nullable === true || schema['x-nullable'] === true;
  const kind = Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value;
  if (kind === 'number') return types.includes('number') || (types.includes('integer') && Number.isInteger(value));
  return types.includes(kind);
}

/** The type a schema describes: its `type` (the first not `null`), else what its keywords imply. */
function typeOf(schema: Json): string | undefined {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t) => typeof t === 'string');
  const type = types.find((t) => t !== 'null') ?? types[0];
  if (type !== undefined) return type;
  if ('properties' in schema || 'required' in schema || 'additionalProperties' in schema) return 'object';
  if ('items' in schema || 'prefixItems' in schema || 'minItems' in schema) return 'array';
  if ('pattern' in schema || 'minLength' in schema || 'format' in schema) return 'string';
  if ('minimum' in schema || 'maximum' in schema || 'multipleOf' in schema) return 'number';
  return undefined;
}

function emptyOf(type: string | undefined): unknown {
  return type === 'object' ? {} : type === 'array' ? [] : type === 'string' ? '' : type === 'boolean' ? true : type === 'number' || type === 'integer' ? 0 : null;
}

function isWriteOnly(property: unknown, spec: Json): boolean {
  return resolve(property, spec)[0].writeOnly === true;
}

/** The schema `$ref`s lead to (a circular one is a pointer into `spec`), and the last pointer followed. */
function resolve(given: unknown, spec: Json): [Json, string | undefined] {
  let schema = asObject(given);
  let ref: string | undefined;
  for (let hops = 0; typeof schema.$ref === 'string' && hops < MAX_HOPS; hops++) {
    ref = schema.$ref;
    if (!ref.startsWith('#')) return [{}, ref];
    schema = asObject(pointer(spec, ref.slice(1)));
  }
  return [schema, ref];
}

// What each `$ref` of a document points at, by its dereferenced document: reading a pointer's
// segments again for every value was most of a sample's time.
const pointed = new WeakMap<Json, Map<string, unknown>>();

function pointer(root: Json, path: string): unknown {
  let known = pointed.get(root);
  if (!known) pointed.set(root, (known = new Map()));
  if (known.has(path)) return known.get(path);
  let node: unknown = root;
  for (const raw of path.split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    node = typeof node === 'object' && node !== null && Object.hasOwn(node, key) ? (node as Json)[key] : undefined;
  }
  known.set(path, node);
  return node;
}

function mergeDeep(into: Json, from: Json): Json {
  const out: Json = { ...into };
  for (const [key, value] of Object.entries(from)) {
    out[key] = isPlainObject(out[key]) && isPlainObject(value) ? mergeDeep(out[key] as Json, value) : value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObject(value: unknown): Json {
  return isPlainObject(value) ? value : {};
}

type Json = Record<string, unknown>;

/**
 * A part of a document the validator checks on its own: some of its paths, and of the reusable
 * objects (`components`, Swagger 2's `definitions`, `parameters`, `responses`) only those the paths
 * reach. The validator dereferences all it is given: with every schema of Kubernetes' description in
 * each of its 50 parts, loading took 20 s. `cut` makes the same part of the document and of the
 * document dereferenced, whose printed lines the validator's messages count.
 */
export type DocumentPart = { cut<T extends object>(document: T): T };

// Bytes of JSON (compact, every shared $ref target counted where it is used) a part's paths come to.
const PART_BYTES = 2 * 1024 * 1024;

// Where reusable objects are kept, by version: a `$ref` to `#/<where>/<name>` keeps that entry.
const SWAGGER_KEEPS = ['definitions', 'parameters', 'responses'];
// Security schemes are named, not referred to: kept whole.
const KEPT_WHOLE = new Set(['securitySchemes']);

/**
 * The parts of a document: first one without paths (the rest of the document, reusable objects
 * whole, so that an error there is found as before), then the paths in parts whose dereferenced
 * JSON is at most PART_BYTES (one path item may pass it), each with what it reaches.
 */
export function documentParts(document: Json, dereferenced: Json): DocumentPart[] {
  const whole: DocumentPart = { cut: (of) => ({ ...of, paths: {} }) };
  return [whole, ...pathGroups(dereferenced).map((templates) => pathPart(document, templates))];
}

function pathPart(document: Json, templates: string[]): DocumentPart {
  const reached = reachedBy(document, templates);
  return {
    cut(of) {
      const source = of as Json;
      const part: Json = { ...source, paths: pick(source.paths, templates) };
      // A $ref the walk could not follow (into another path item): the reusable objects stay whole.
      if (!reached) return part as typeof of;
      if ('swagger' in source) {
        for (const where of SWAGGER_KEEPS) if (isObject(source[where])) part[where] = kept(source[where], reached, where);
      } else if (isObject(source.components)) {
        part.components = Object.fromEntries(
          Object.entries(source.components).map(([kind, entries]) => [
            kind,
            KEPT_WHOLE.has(kind) || !isObject(entries) ? entries : kept(entries, reached, `components/${kind}`),
          ]),
        );
      }
      return part as typeof of;
    },
  };
}

function kept(entries: Json, reached: Set<string>, where: string): Json {
  return Object.fromEntries(Object.entries(entries).filter(([name]) => reached.has(`${where}/${escape(name)}`)));
}

/**
 * The reusable entries (`components/schemas/Pet`, `definitions/Pet`) the paths (and 3.1's webhooks)
 * reach through local `$ref`s, followed through the entries themselves; undefined if one points
 * elsewhere in the document. Each entry is walked once.
 */
function reachedBy(document: Json, templates: string[]): Set<string> | undefined {
  const reached = new Set<string>();
  const paths = isObject(document.paths) ? document.paths : {};
  const pending: unknown[] = [...templates.map((template) => paths[template]), document.webhooks];
  const walked = new Set<object>();
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null || walked.has(node)) continue;
    walked.add(node);
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) {
        const segments = value.slice(2).split('/');
        const depth = segments[0] === 'components' ? 3 : SWAGGER_KEEPS.includes(segments[0]!) ? 2 : 0;
        if (depth === 0 || segments.length < depth) return undefined;
        const entry = segments.slice(0, depth).map((key) => escape(unescape(key))).join('/');
        if (reached.has(entry)) continue;
        reached.add(entry);
        pending.push(segments.slice(0, depth).reduce<unknown>((at, key) => (isObject(at) ? at[unescape(key)] : undefined), document));
      } else pending.push(value);
    }
  }
  return reached;
}

/** The path templates in groups whose dereferenced JSON is at most PART_BYTES. */
function pathGroups(dereferenced: Json): string[][] {
  const sizes = new Map<object, number>();
  const size = (node: unknown): number => {
    if (typeof node !== 'object' || node === null) return String(node).length + 2;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    let total = 2;
    for (const [key, value] of Object.entries(node)) total += key.length + 4 + size(value);
    sizes.set(node, total);
    return total;
  };
  const found: string[][] = [[]];
  let bytes = 0;
  for (const [template, item] of Object.entries(isObject(dereferenced.paths) ? dereferenced.paths : {})) {
    const cost = size(item);
    if (bytes + cost > PART_BYTES && found.at(-1)!.length > 0) {
      found.push([]);
      bytes = 0;
    }
    found.at(-1)!.push(template);
    bytes += cost;
  }
  return found.filter((group) => group.length > 0);
}

function pick(paths: unknown, templates: string[]): Json {
  const all = isObject(paths) ? paths : {};
  return Object.fromEntries(templates.map((template) => [template, all[template]]));
}

function escape(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

function unescape(key: string): string {
  return decodeURIComponent(key).replaceAll('~1', '/').replaceAll('~0', '~');
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

import { randomUUID } from 'node:crypto';

type Json = Record<string, unknown>;

/** Where a sample stops: nesting past `depth` is null, and past `nodes` values every further one is. */
export type SampleBounds = { depth: number; nodes: number };
const BOUNDS: SampleBounds = { depth: 8, nodes: 2000 };
// Lists are sampled short: a fresh answer per request, not a big one.
const MAX_ITEMS = 3;
const WORDS = ['alpha', 'bravo', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'harbor', 'iris', 'juniper'];

/**
 * A value the schema accepts, drawn afresh (Prism's `Prefer: dynamic=true`): an `example`, `enum`
 * or `const` chosen from, numbers within their bounds, strings of their format and length, lists of
 * up to three items, every property of an object. What it cannot honour (`pattern`, `not`) is left to
 * `fallback` (the import's sampler), given that subschema. `$ref`s must be resolved already; one left
 * (a circular reference) is sampled as `fallback` says.
 */
export function randomSample(schema: unknown, fallback: (schema: Json) => unknown, bounds: SampleBounds = BOUNDS): unknown {
  let nodes = 0;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
  const walk = (node: unknown, depth: number): unknown => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return null;
    if (++nodes > bounds.nodes || depth > bounds.depth) return null;
    const s = node as Json;
    if ('const' in s) return s.const;
    if (Array.isArray(s.enum) && s.enum.length > 0) return pick(s.enum);
    if (Array.isArray(s.examples) && s.examples.length > 0) return pick(s.examples);
    if (typeof s.$ref === 'string' || s.pattern !== undefined || s.not !== undefined) return fallback(s);
    for (const key of ['oneOf', 'anyOf'] as const) {
      if (Array.isArray(s[key]) && (s[key] as unknown[]).length > 0) return walk(pick(s[key] as unknown[]), depth + 1);
    }
    if (Array.isArray(s.allOf)) {
      const parts = (s.allOf as unknown[]).map((part) => walk(part, depth + 1));
      if (parts.every((part) => typeof part === 'object' && part !== null && !Array.isArray(part))) return Object.assign({}, ...parts);
      return parts.find((part) => part !== null) ?? null;
    }
    const type = Array.isArray(s.type) ? pick((s.type as unknown[]).filter((t) => t !== 'null')) : s.type ?? (s.properties ? 'object' : s.items ? 'array' : undefined);
    switch (type) {
      case 'object': {
        const out: Json = {};
        for (const [name, sub] of Object.entries((s.properties as Json | undefined) ?? {})) {
          if ((sub as Json | null)?.writeOnly === true) continue;
          Object.defineProperty(out, name, { value: walk(sub, depth + 1), enumerable: true, writable: true, configurable: true });
        }
        return out;
      }
      case 'array': {
        const min = Math.min(numberOr(s.minItems, 0), MAX_ITEMS);
        const max = Math.max(min, Math.min(numberOr(s.maxItems, MAX_ITEMS), MAX_ITEMS));
        const count = min + Math.floor(Math.random() * (max - min + 1));
        return Array.from({ length: Math.max(count, 1) }, () => walk(s.items ?? {}, depth + 1));
      }
      case 'integer':
      case 'number':
        return number(s, type === 'integer');
      case 'boolean':
        return Math.random() < 0.5;
      case 'string':
        return string(s);
      case 'null':
        return null;
      default:
        return fallback(s);
    }
  };
  return walk(schema, 1);

  function number(s: Json, integer: boolean): number {
    const low = numberOr(s.minimum, numberOr(s.exclusiveMinimum, 0) + (s.exclusiveMinimum === undefined ? 0 : integer ? 1 : 0.01));
    const high = Math.max(low, numberOr(s.maximum, numberOr(s.exclusiveMaximum, low + 1000) - (s.exclusiveMaximum === undefined ? 0 : integer ? 1 : 0.01)));
    let value = low + Math.random() * (high - low);
    const step = numberOr(s.multipleOf, integer ? 1 : 0);
    if (step > 0) value = Math.min(Math.ceil(low / step) * step + Math.floor(Math.random() * Math.max(1, Math.floor((high - low) / step))) * step, high);
    return integer ? Math.round(value) : Math.round(value * 100) / 100;
  }

  function string(s: Json): string {
    const now = Date.now() - Math.floor(Math.random() * 1e11);
    switch (s.format) {
      case 'date-time':
        return new Date(now).toISOString();
      case 'date':
        return new Date(now).toISOString().slice(0, 10);
      case 'uuid':
        return randomUUID();
      case 'email':
        return `${pick(WORDS)}.${pick(WORDS)}@example.com`;
      case 'uri':
      case 'url':
        return `https://example.com/${pick(WORDS)}`;
      case 'ipv4':
        return Array.from({ length: 4 }, () => Math.floor(Math.random() * 256)).join('.');
      default: {
        const min = numberOr(s.minLength, 0);
        const max = Math.max(min, numberOr(s.maxLength, Math.max(min, 12)));
        let text = pick(WORDS);
        while (text.length < min) text += pick(WORDS);
        return text.slice(0, Math.max(min, Math.min(max, text.length)));
      }
    }
  }
}

function numberOr(value: unknown, otherwise: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : otherwise;
}

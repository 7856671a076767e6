import type { GraphQLEnumType, GraphQLScalarType } from 'graphql';

/**
 * Mocked values, stable for the same query and arguments: each value is drawn from a seed made of
 * the path of field names and arguments leading to it, never from Math.random (which
 * @graphql-tools/mock's defaults use, so a refetch would differ from the first answer).
 */

/** The seed below `seed` for `part` (a field and its arguments, or a list index): FNV-1a over its text. */
export function mix(seed: number, part: string | number): number {
  let hash = (seed ^ 0x811c9dc5) >>> 0;
  const text = String(part);
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A value as text whatever its objects' key order, for a seed: `{id: 1, q: "x"}` seeds as `{q: "x", id: 1}` does. */
export function stableText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableText).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${stableText((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A built-in scalar's or custom scalar's mocked value; custom scalars are strings, as the issue asks. */
export function scalarValue(type: GraphQLScalarType, seed: number, field: string): unknown {
  switch (type.name) {
    case 'Int':
      return seed % 100;
    case 'Float':
      return (seed % 10_000) / 100;
    case 'Boolean':
      return (seed & 1) === 1;
    case 'ID':
      return seed.toString(36);
    case 'String':
      return `${field} ${seed % 1000}`;
    default:
      return `${type.name} ${seed % 1000}`;
  }
}

export function enumValue(type: GraphQLEnumType, seed: number): unknown {
  const values = type.getValues();
  return values[seed % values.length]!.value;
}

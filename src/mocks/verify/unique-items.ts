import type { KeywordDefinition } from 'ajv';

type SchemaValidate = ((schema: unknown, data: unknown) => boolean) & { errors?: { keyword: string; message: string; params: object }[] };

/**
 * `uniqueItems` in linear time, checking `check` (the CPU budget) as it goes. ajv's own compares
 * every pair of items that are not all numbers or strings: `{"uniqueItems": true}` over a logged
 * body of 9,000 one-number arrays (62 KB) took 430 ms, in one call the budget cannot interrupt.
 * Here each item is written once in a canonical form (object keys sorted, so equal JSON values are
 * equal text) and looked up in a set.
 */
export function uniqueItems(check: () => void): KeywordDefinition {
  const validate: SchemaValidate = (schema, data) => {
    if (schema !== true || !Array.isArray(data)) return true;
    const seen = new Map<string, number>();
    for (const [i, item] of data.entries()) {
      if (i % 256 === 0) check();
      const key = canonical(item);
      const first = seen.get(key);
      if (first !== undefined) {
        validate.errors = [{ keyword: 'uniqueItems', message: `must NOT have duplicate items (items ## ${first} and ${i} are identical)`, params: { i: first, j: i } }];
        return false;
      }
      seen.set(key, i);
    }
    return true;
  };
  return { keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', validate, errors: true };
}

/** A JSON value as text in which equal values are equal (JSON Schema's equality: key order does not count). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    return `{${Object.keys(object).sort().map((key) => `${JSON.stringify(key)}:${canonical(object[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}


import { isJsonObject } from '../../http/json-body.js';

/**
 * The keyword put into every subschema of a `bodySchema` before it is compiled; its test is the CPU
 * budget's check (body-schema.ts defines it). A check per request is not enough: one body's
 * validation cannot be interrupted, and a schema of 1.4 KiB (22 `$defs`, each an `anyOf` of two
 * `$ref`s to the next) made ajv try 2^22 paths for the body `1`: 6.6 s of the event loop per logged
 * request, and each `$def` more doubles it. With a check in every subschema it stops at the budget.
 */
export const BUDGET_KEYWORD = 'snippetkitCpuBudget';

/** Keywords whose value is a schema (or, for draft-07's `items`, a list of them). */
const SCHEMA = new Set([
  'additionalProperties', 'additionalItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else',
  'items', 'unevaluatedItems', 'unevaluatedProperties',
]);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to schemas (draft-07's `dependencies` may map to a list of names instead). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);

/**
 * A copy of `schema` with BUDGET_KEYWORD in every subschema, values that are data (`enum`, `const`,
 * `default`, `examples`) left as they are. Draft-07 ignores a `$ref`'s siblings, so there the schema
 * a `$ref` names carries the check. Recursion is bounded by the schema's depth (schema-bounds.ts).
 */
export function withBudgetChecks(schema: unknown, draft07: boolean): unknown {
  if (!isJsonObject(schema)) return schema;
  const each = (value: unknown) => withBudgetChecks(value, draft07);
  const copied = (key: string, value: unknown): unknown => {
    if (SCHEMA.has(key)) return Array.isArray(value) ? value.map(each) : each(value);
    if (SCHEMA_LISTS.has(key) && Array.isArray(value)) return value.map(each);
    if (SCHEMA_MAPS.has(key) && isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, each(sub)]));
    return value;
  };
  // Built with fromEntries, never `copy[key] =`: a key `__proto__` (JSON.parse makes it an own key) stays a key.
  const entries = Object.entries(schema).map(([key, value]) => [key, copied(key, value)]);
  if (!(draft07 && '$ref' in schema)) entries.push([BUDGET_KEYWORD, true]);
  return Object.fromEntries(entries);
}

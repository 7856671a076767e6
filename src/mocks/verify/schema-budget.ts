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
  const copy: Record<string, unknown> = {};
  const each = (value: unknown) => withBudgetChecks(value, draft07);
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA.has(key)) copy[key] = Array.isArray(value) ? value.map(each) : each(value);
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) copy[key] = value.map(each);
    else if (SCHEMA_MAPS.has(key) && isJsonObject(value)) copy[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, each(sub)]));
    else copy[key] = value;
  }
  if (!(draft07 && '$ref' in schema)) copy[BUDGET_KEYWORD] = true;
  return copy;
}

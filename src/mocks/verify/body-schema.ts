import { Ajv, type ErrorObject, type Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { CpuBudgetExceeded, startCpuBudget, type CpuBudget } from '../../gates/cpu-budget.js';
import { HttpError } from '../../http/errors.js';
import { VERIFY_WORK } from './pattern.js';
import { re2Patterns } from './re2-pattern.js';
import { BUDGET_KEYWORD, withBudgetChecks } from './schema-budget.js';
import { uniqueItems } from './unique-items.js';

/**
 * Where a body fails its schema: the first error's JSON Pointer into the body (`''`: the whole body),
 * what the schema asks there (ajv's message), and the body's value there as JSON.
 */
export type SchemaMiss = { at: string; expected: string; value: string | null };

// One meta-schema check per draft, shared: checking a schema adds nothing to them, so they do not grow.
// Made as the module loads (api-verify.ts imports it before a request's budget starts), with a first
// compile of each kind: that one-time work (the meta-schemas, the JIT warming ajv's compiler) took
// 60–70 ms, and counted in the first verification's budget it made that request a 503 on a busy machine.
const checkers = { draft2020: new Ajv2020({ logger: false }), draft07: new Ajv({ logger: false }) };

/** A body's test against a schema: undefined when it holds. */
export type SchemaTest = (body: string) => SchemaMiss | undefined;

/**
 * The test of a body against `schema` (draft 2020-12, or draft-07 when its `$schema` says so; bounded
 * by schema-bounds.ts), compiled for this request only: a fresh ajv instance per request keeps nothing
 * of the schema after it (one shared instance would keep every schema and pattern it was given). A
 * schema ajv refuses is a 400 with ajv's message; a `$ref` is only resolved inside the schema, never
 * fetched. Loaded only by a verification that has a schema: ajv is not part of a server's start.
 */
export function compileBodySchema(schema: Record<string, unknown>, budget: CpuBudget): SchemaTest {
  const draft07 = typeof schema.$schema === 'string' && /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/.test(schema.$schema);
  const checker = draft07 ? checkers.draft07 : checkers.draft2020;
  const options: Options = {
    // The first error only: validation stops there, and a near miss names one difference per body.
    allErrors: false,
    validateSchema: false,
    // A misspelt keyword or an unknown format is a 400, not a schema that quietly accepts anything.
    strictSchema: true,
    strictNumbers: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    // Strict mode would otherwise test each patternProperties pattern on the property names with
    // JavaScript's own RegExp while compiling: a backtracking pattern run on the schema's own words.
    allowMatchingProperties: true,
    // A small $ref'd schema is otherwise copied into every place that refers to it.
    inlineRefs: false,
    logger: false,
    code: { regExp: re2Patterns(budget), optimize: false },
  };
  let validate: ReturnType<Ajv['compile']>;
  try {
    if (!checker.validateSchema(schema)) {
      throw refused(`bodySchema is not a valid JSON Schema: ${checker.errorsText(checker.errors, { dataVar: 'bodySchema' })}`);
    }
    const ajv = draft07 ? new Ajv(options) : new Ajv2020(options);
    addFormats.default(ajv);
    // Checked in every subschema: one body's validation can be exponential in the schema (schema-budget.ts).
    const check = () => (budget.check(VERIFY_WORK), true);
    // First of the keywords any type runs (each draft's first), so it runs before a `$ref` or an `anyOf` that fails.
    const before = draft07 ? '$comment' : '$dynamicAnchor';
    ajv.addKeyword({ keyword: BUDGET_KEYWORD, schemaType: 'boolean', errors: false, validate: check, before });
    ajv.removeKeyword('uniqueItems');
    ajv.addKeyword(uniqueItems(() => budget.check(VERIFY_WORK)));
    validate = ajv.compile(withBudgetChecks(schema, draft07) as Record<string, unknown>);
  } catch (err) {
    if (err instanceof HttpError || err instanceof CpuBudgetExceeded || !(err instanceof Error)) throw err;
    const remote = err instanceof Ajv.MissingRefError ? ' (a $ref is resolved inside the schema only, never fetched)' : '';
    throw refused(`bodySchema: ${err.message}${remote}`);
  }
  budget.check(VERIFY_WORK);
  return (body) => {
    let data: unknown;
    try {
      data = JSON.parse(body);
    } catch {
      return { at: '', expected: 'JSON valid against bodySchema', value: body === '' ? null : body };
    }
    try {
      if (validate(data)) return undefined;
    } catch (err) {
      // A body nested thousands deep, under a recursive schema, overflows the stack: a difference, not a 500.
      if (err instanceof RangeError) return { at: '', expected: 'a body nested shallowly enough to validate', value: body };
      throw err;
    }
    const error = validate.errors![0]!;
    return { at: error.instancePath, expected: messageOf(error), value: shownValue(valueAt(data, error.instancePath)) };
  };
}

function messageOf(error: ErrorObject): string {
  const extra = error.params.additionalProperty ?? error.params.unevaluatedProperty;
  return extra === undefined ? (error.message ?? error.keyword) : `${error.message}: ${String(extra)}`;
}

/** A value as JSON; one nested too deep for JSON.stringify's stack is said so instead. */
function shownValue(value: unknown): string | null {
  try {
    return JSON.stringify(value) ?? null;
  } catch (err) {
    if (err instanceof RangeError) return '(nested too deep to show)';
    throw err;
  }
}

/** The value a JSON Pointer names in `data`. */
function valueAt(data: unknown, pointer: string): unknown {
  let at = data;
  for (const part of pointer.split('/').slice(1)) {
    at = (at as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return at;
}

function refused(message: string): HttpError {
  return new HttpError(400, message, 'bodySchema');
}

// The warm-up (see `checkers`): a schema of each draft using the keywords most have, on a body.
for (const $schema of [undefined, 'http://json-schema.org/draft-07/schema#']) {
  const warm = { ...($schema && { $schema }), type: 'object', properties: { a: { type: 'string', pattern: '^a', format: 'email' } } };
  compileBodySchema(warm, startCpuBudget(60_000))('{"a":"a@example.com"}');
}

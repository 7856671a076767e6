import { Ajv2020, type ErrorObject, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { CpuBudget, startCpuBudget } from '../../gates/cpu-budget.js';
import { VERIFY_WORK } from '../verify/pattern.js';
import { re2Patterns } from '../verify/re2-pattern.js';
import { BUDGET_KEYWORD, withBudgetChecks } from '../verify/schema-budget.js';
import { uniqueItems } from '../verify/unique-items.js';

/** A compiled schema: the errors of `data` against it, [] when it holds. Throws CpuBudgetExceeded. */
export type SchemaCheck = (data: unknown) => ErrorObject[];

/**
 * The budget of the request being checked. A record's schemas are compiled once and used by every
 * request after; their budget checks (in every subschema, in each RE2 match) ask this one, set by
 * `withBudget` around each synchronous check.
 */
let current = new CpuBudget(0);

class CurrentBudget extends CpuBudget {
  override check(work: string): void {
    current.check(work);
  }
  override remainingMs(): number {
    return current.remainingMs();
  }
}

/**
 * Runs `work` (a compile) outside the current request's budget, on one without a limit: compiling is
 * bounded by the record's size instead (expects.ts), and charged to a request it would be a 503 for the
 * first request after a start or a write on a busy machine, and done again by the next.
 */
export function unbudgeted<T>(work: () => T): T {
  const request = current;
  request.pause();
  try {
    return withBudget(new CpuBudget(Number.POSITIVE_INFINITY), work);
  } finally {
    request.resume();
  }
}

/** Runs `work` with `budget` as the one compiled checks charge. */
export function withBudget<T>(budget: CpuBudget, work: () => T): T {
  const before = current;
  current = budget;
  try {
    return work();
  } finally {
    current = before;
  }
}

// ajv's own cap on errors is none: a body of 10,000 wrong items would make 10,000 of them.
const MAX_ERRORS = 20;

/**
 * A compiler of parameters' schemas (`coerce`: text that must read as an integer, a list from one
 * value) or of bodies' (no coercion), for one record: ajv keeps everything it compiles for as long
 * as the instance lives (a shared one grew 131 KB per schema of 100 properties compiled and dropped),
 * so each record has its own, let go with the record. Schemas are checked against the meta-schema by
 * one shared checker, which checking adds nothing to. Strict mode off: OpenAPI schemas carry
 * `example`, `xml`, `discriminator` and such, which JSON Schema ignores, and so does this.
 */
export function schemaCompiler(coerce: boolean): (schema: Record<string, unknown>) => SchemaCheck {
  const ajv = makeAjv(coerce);
  return (schema) => {
    metaChecker ??= new Ajv2020({ logger: false });
    if (!metaChecker.validateSchema(schema)) throw new Error(`not a valid JSON Schema: ${metaChecker.errorsText(metaChecker.errors)}`);
    const validate: ValidateFunction = ajv.compile(withBudgetChecks(schema, false) as Record<string, unknown>);
    return (data) => {
      try {
        return validate(data) ? [] : validate.errors!.slice(0, MAX_ERRORS);
      } catch (err) {
        // A body nested thousands deep, under a recursive schema, overflows the stack.
        if (!(err instanceof RangeError)) throw err;
        return [{ keyword: 'depth', instancePath: '', schemaPath: '', params: {}, message: 'must be nested shallowly enough to check' }];
      }
    };
  };
}

let metaChecker: Ajv2020 | undefined;

function makeAjv(coerce: boolean): Ajv2020 {
  const options: Options = {
    allErrors: true,
    strict: false,
    validateSchema: false,
    addUsedSchema: false,
    inlineRefs: false,
    logger: false,
    ...(coerce && { coerceTypes: 'array' as const }),
    code: { regExp: re2Patterns(new CurrentBudget(0)), optimize: false },
  };
  const ajv = new Ajv2020(options);
  addFormats.default(ajv);
  addOpenapiFormats(ajv);
  ajv.addKeyword({ keyword: BUDGET_KEYWORD, schemaType: 'boolean', errors: false, validate: () => (current.check(VERIFY_WORK), true), before: '$dynamicAnchor' });
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword(uniqueItems(() => current.check(VERIFY_WORK)));
  return ajv;
}

/** OpenAPI's own formats (its Data Types section); ones that say nothing checkable accept any value. */
function addOpenapiFormats(ajv: Ajv2020): void {
  const integerIn = (bits: number) => (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** (bits - 1);
  ajv.addFormat('int32', { type: 'number', validate: integerIn(32) });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  for (const any of ['float', 'double']) ajv.addFormat(any, { type: 'number', validate: () => true });
  ajv.addFormat('byte', /^[A-Za-z0-9+/]*={0,2}$/);
  for (const any of ['binary', 'password']) ajv.addFormat(any, true);
}

// Warmed as the module loads (at start with --validate, else before the first check's budget starts):
// the meta-schema's compile and ajv's first code generation took 60–70 ms for verify/body-schema.ts.
withBudget(startCpuBudget(60_000), () =>
  schemaCompiler(false)({ type: 'object', properties: { a: { type: 'string', pattern: '^a', format: 'email' } } })({ a: 'a@example.com' }),
);

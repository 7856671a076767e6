import type { ExpectedParam, Expects, ParamPlace } from '../record/expects/expects.js';
import { startCpuBudget } from '../../gates/cpu-budget.js';
import { schemaCompiler, withBudget, type SchemaCheck } from './compile-schemas.js';

/** A part of `expects` compiled, or why it could not be (its checks are then skipped, and said once). */
type Part = { check: SchemaCheck } | { unusable: string };

/** The compiled checks of one record's `expects`, each made at its first use. */
export type CompiledExpects = {
  /** The check of a place's parameters as one object of their values; undefined when none has a rule. */
  params(place: ParamPlace): Part | undefined;
  /** The check of a body of a documented media type (its key in `content`); undefined without a schema. */
  body(type: string): Part | undefined;
};

// Keyed by the record's `expects`, which a write replaces: a stale check is never used.
const compiled = new WeakMap<Expects, CompiledExpects>();

export function compiledExpects(expects: Expects): CompiledExpects {
  let found = compiled.get(expects);
  if (!found) {
    found = compile(expects);
    compiled.set(expects, found);
  }
  return found;
}

function compile(expects: Expects): CompiledExpects {
  const parts = new Map<string, Part | undefined>();
  let paramsCompiler: ReturnType<typeof schemaCompiler> | undefined;
  let bodyCompiler: ReturnType<typeof schemaCompiler> | undefined;
  const part = (key: string, make: () => SchemaCheck | undefined): Part | undefined => {
    if (parts.has(key)) return parts.get(key);
    let made: Part | undefined;
    try {
      // Bounded by the record's size, not the budget: stopped halfway, a compile would start over at
      // every request. Its time still counts in the request's budget, checked as the check runs.
      const check = withBudget(startCpuBudget(Number.POSITIVE_INFINITY), make);
      made = check && { check };
    } catch (err) {
      // A pattern RE2 does not take, a schema the meta-schema refuses, a $ref to nowhere: that part goes unchecked.
      if (!(err instanceof Error)) throw err;
      made = { unusable: `${key}: ${err.message}` };
    }
    parts.set(key, made);
    return made;
  };
  return {
    params: (place) =>
      part(`${place} parameters`, () => {
        const params = (expects.params ?? []).filter((param) => param.in === place);
        if (params.length === 0) return undefined;
        paramsCompiler ??= schemaCompiler(true);
        return paramsCompiler(objectSchema(params));
      }),
    body: (type) =>
      part(`body ${type}`, () => {
        const schema = expects.body?.content[type]?.schema;
        if (!schema) return undefined;
        bodyCompiler ??= schemaCompiler(false);
        return bodyCompiler(schema);
      }),
  };
}

/** The parameters of one place as one object schema: each a property, the required ones required. */
function objectSchema(params: ExpectedParam[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((param) => [param.name, param.schema ?? {}])),
    required: params.filter((param) => param.required || param.in === 'path').map((param) => param.name),
  };
}

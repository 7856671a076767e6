import type { ExpectedParam, Expects, ParamPlace } from '../record/expects/expects.js';
import { COMPILED_SCHEMA_BYTES, COMPILED_SCHEMA_FACTOR, type MemoryAccount } from '../../gates/memory-budget.js';
import { schemaCompiler, unbudgeted, type SchemaCheck } from './compile-schemas.js';

const FORM = 'application/x-www-form-urlencoded';

/** A part of `expects` compiled, or why it could not be (its checks are then skipped, and said once). */
type Part = { check: SchemaCheck } | { unusable: string };

/** The compiled checks of one record's `expects`, each made at its first use. */
export type CompiledExpects = {
  /** The check of a place's parameters as one object of their values; undefined when none has a rule. */
  params(place: ParamPlace): Part | undefined;
  /** The check of a body of a documented media type (its key in `content`); undefined without a schema. */
  body(type: string): Part | undefined;
};

/** The records' memory budget has no room for a schema's compiled check: a 507, nothing compiled. */
export class NoRoomToCompile extends Error {
  override name = 'NoRoomToCompile';
}

// Keyed by the record's `expects`, which a write replaces: a stale check is never used.
const compiled = new WeakMap<Expects, CompiledExpects>();
// What a record's compiled checks were charged goes back once the record is gone.
const charges = new FinalizationRegistry<{ account: MemoryAccount; bytes: number }>(({ account, bytes }) => account.release(bytes));

/** The compiled checks of `expects`, each charged to `account` (the records' budget) as it is made. */
export function compiledExpects(expects: Expects, account: MemoryAccount): CompiledExpects {
  let found = compiled.get(expects);
  if (!found) {
    found = compile(expects, account);
    compiled.set(expects, found);
  }
  return found;
}

function compile(expects: Expects, account: MemoryAccount): CompiledExpects {
  const parts = new Map<string, Part | undefined>();
  let paramsCompiler: ReturnType<typeof schemaCompiler> | undefined;
  let bodyCompiler: ReturnType<typeof schemaCompiler> | undefined;
  const part = (key: string, schema: () => Record<string, unknown> | undefined, make: (schema: Record<string, unknown>) => SchemaCheck): Part | undefined => {
    if (parts.has(key)) return parts.get(key);
    const given = schema();
    if (!given) {
      parts.set(key, undefined);
      return undefined;
    }
    const bytes = COMPILED_SCHEMA_BYTES + COMPILED_SCHEMA_FACTOR * JSON.stringify(given).length;
    if (!account.tryCharge(bytes)) {
      throw new NoRoomToCompile(`checking this endpoint's ${key} needs ${bytes} bytes more than the records' memory has left (--max-store-bytes)`);
    }
    let made: Part;
    try {
      // Bounded by the record's size, not the request's budget (compile-schemas.ts, unbudgeted).
      const check = unbudgeted(() => make(given));
      made = { check };
      charges.register(expects, { account, bytes });
    } catch (err) {
      account.release(bytes);
      // A pattern RE2 does not take, a schema the meta-schema refuses, a $ref to nowhere: that part goes unchecked.
      if (!(err instanceof Error)) throw err;
      made = { unusable: `${key}: ${err.message}` };
    }
    parts.set(key, made);
    return made;
  };
  return {
    params: (place) =>
      part(
        `${place} parameters`,
        () => {
          const params = (expects.params ?? []).filter((param) => param.in === place);
          return params.length === 0 ? undefined : objectSchema(params);
        },
        (schema) => (paramsCompiler ??= schemaCompiler(true))(schema),
      ),
    body: (type) =>
      part(`body ${type}`, () => expects.body?.content[type]?.schema, (schema) =>
        // A form's fields are text, read as their schema's types as parameters are.
        type === FORM ? (paramsCompiler ??= schemaCompiler(true))(schema) : (bodyCompiler ??= schemaCompiler(false))(schema),
      ),
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

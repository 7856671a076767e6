import type { GraphQLFieldResolver, GraphQLOutputType, GraphQLSchema, GraphQLTypeResolver } from 'graphql';
import type { CpuBudget } from '../../gates/cpu-budget.js';
import { useCpuBudget, type Render, type TemplateInput } from '../templates/template.js';
import { graphql } from './load.js';
import { QUERY_LIMITS } from './limits.js';
import { enumValue, mix, scalarValue, stableText } from './mock-values.js';

/** The seed of a mocked object, and its type's `mocks` entry once rendered; on every object the resolvers return. */
const SEED = Symbol('seed');
const TYPE_MOCK = Symbol('type mock');
/** A field neither `mocks` nor its parent object gives a value: mocked by its type. */
const MISSING = Symbol('missing');

type Source = { [SEED]?: number; [TYPE_MOCK]?: Record<string, unknown> } & Record<string, unknown>;

/** The query resolved more fields than QUERY_LIMITS.maxResolved. */
export class TooManyFields extends Error {
  override name = 'TooManyFields';
  constructor() {
    super(`the answer would hold more than ${QUERY_LIMITS.maxResolved} fields`);
  }
}

export type Resolvers = {
  rootValue: Source;
  fieldResolver: GraphQLFieldResolver<Source, unknown>;
  typeResolver: GraphQLTypeResolver<Source, unknown>;
};

/**
 * Resolvers answering every field of `schema` with a mocked value (docs/mock-api.md, "GraphQL"):
 * `mocks["Type.field"]` rendered with the field's `args`, else what the parent object's value
 * gives, else `mocks["Type"]`'s field, else a value of the field's type (lists of 2). Each field
 * resolved counts against QUERY_LIMITS.maxResolved and checks the request's CPU budget.
 */
export function mockResolvers(schema: GraphQLSchema, mocks: Map<string, Render>, input: TemplateInput, cpu: CpuBudget): Resolvers {
  const { isNonNullType, isListType, isLeafType, isEnumType, isScalarType } = graphql();
  let resolved = 0;

  // One scope for the request, its `args` set per field: the templates' output limit counts per scope
  // object, so it bounds the whole answer rather than each of up to maxResolved fields.
  const scope: TemplateInput & { args: Record<string, unknown> } = { ...input, args: {} };
  useCpuBudget(scope, cpu);
  const render = (key: string, args: Record<string, unknown>): unknown => {
    const template = mocks.get(key);
    if (!template) return MISSING;
    scope.args = args;
    return JSON.parse(template(scope)) as unknown;
  };

  const complete = (type: GraphQLOutputType, value: unknown, seed: number, field: string): unknown => {
    if (isNonNullType(type)) return complete(type.ofType, value, seed, field);
    if (value === null) return null;
    if (isListType(type)) {
      const items = Array.isArray(value) ? (value as unknown[]) : value === MISSING ? [MISSING, MISSING] : undefined;
      return items ? items.map((item, i) => complete(type.ofType, item, mix(seed, i), field)) : value;
    }
    if (isLeafType(type)) {
      if (value !== MISSING) return value;
      const own = render(type.name, {});
      if (own !== MISSING) return own;
      return isEnumType(type) ? enumValue(type, seed) : isScalarType(type) ? scalarValue(type, seed, field) : null;
    }
    if (value === MISSING) return { [SEED]: seed };
    // An object a mock gave: its fields as given, the rest mocked below it.
    return typeof value === 'object' && !Array.isArray(value) ? { ...value, [SEED]: seed } : value;
  };

  const fieldResolver: GraphQLFieldResolver<Source, unknown> = (source, args, _context, info) => {
    if (++resolved > QUERY_LIMITS.maxResolved) throw new TooManyFields();
    cpu.check('the GraphQL query');
    const { fieldName, parentType } = info;
    const seed = mix(source[SEED] ?? 0, fieldName + stableText(args));
    let value = render(`${parentType.name}.${fieldName}`, args);
    if (value === MISSING && Object.hasOwn(source, fieldName)) value = source[fieldName];
    if (value === MISSING) {
      const typeMock = (source[TYPE_MOCK] ??= asObject(render(parentType.name, {})));
      if (Object.hasOwn(typeMock, fieldName)) value = typeMock[fieldName];
    }
    return complete(info.returnType, value, seed, fieldName);
  };

  // An interface or union: the type the value names in __typename, else one of its types by its seed.
  const typeResolver: GraphQLTypeResolver<Source, unknown> = (value, _context, _info, abstractType) => {
    if (typeof value.__typename === 'string') return value.__typename;
    const types = schema.getPossibleTypes(abstractType);
    return types[(value[SEED] ?? 0) % types.length]?.name;
  };

  return { rootValue: { [SEED]: 0 }, fieldResolver, typeResolver };
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

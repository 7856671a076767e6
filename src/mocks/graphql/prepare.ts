import type { GraphQLSchema } from 'graphql';
import { compileJson, newCompileBudget, type Render } from '../templates/template.js';
import { graphql } from './load.js';
import { buildCheckedSchema, buildSchema } from './schema.js';

/** A `mocks` key that names nothing in the schema; `key` is the field to blame (`mocks.User.nmae`). */
export class MocksError extends Error {
  override name = 'MocksError';
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(message);
  }
}

/** What serving an endpoint version needs, made once: its schema, and its `mocks` compiled to templates. */
export type PreparedGraphql = { schema: GraphQLSchema; mocks: Map<string, Render> };

/**
 * Builds the schema and compiles `mocks` (every string a template, TemplateError naming the
 * field). `checked` schemas were checked at save and skip graphql's rules; at save they throw a
 * SchemaError, and a `mocks` key naming no type or field a MocksError.
 */
export function prepareGraphql(sdl: string, mocks: Record<string, unknown> | undefined, checked = false): PreparedGraphql {
  const schema = checked ? buildCheckedSchema(sdl) : buildSchema(sdl);
  const compiled = new Map<string, Render>();
  const budget = newCompileBudget();
  for (const [key, value] of Object.entries(mocks ?? {})) {
    if (!checked) checkKey(schema, key);
    compiled.set(key, compileJson(JSON.stringify(value), `mocks.${key}`, budget));
  }
  return { schema, mocks: compiled };
}

/** `Type` (an object, scalar or enum type) or `Type.field` (an object type's field): what the resolvers look up. */
function checkKey(schema: GraphQLSchema, key: string): void {
  const { isObjectType, isLeafType } = graphql();
  const [typeName = '', field, ...rest] = key.split('.');
  const type = schema.getType(typeName);
  const where = `mocks.${key}`;
  if (!type || typeName.startsWith('__')) throw new MocksError(where, `the schema has no type '${typeName}'`);
  if (rest.length > 0) throw new MocksError(where, `a mocks key is a type or Type.field, not '${key}'`);
  if (field === undefined) {
    if (!isObjectType(type) && !isLeafType(type)) {
      throw new MocksError(where, `'${typeName}' is not an object, scalar or enum type: mock the object types that implement it or the fields that return it`);
    }
    return;
  }
  if (!isObjectType(type) || !Object.hasOwn(type.getFields(), field)) {
    throw new MocksError(where, `the schema has no object type field '${key}'`);
  }
}

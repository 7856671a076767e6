import type { DocumentNode, FragmentDefinitionNode, SelectionSetNode } from 'graphql';

/** The bounds on one GraphQL request (docs/mock-api.md, "GraphQL"): every anonymous caller may send one. */
export const QUERY_LIMITS = {
  /** Tokens of the query text: graphql's parser stops past them, before building a tree. */
  maxTokens: 10_000,
  /** Fields nested in fields, counted through fragments. */
  maxDepth: 15,
  /** Fields selected, each fragment counted as often as it is spread: bounds validation, whose overlap check is quadratic in them. */
  maxFields: 1_000,
  /** `__schema` and `__type` fields: each answers from the whole schema, so 300 aliases of one would answer it 300 times. */
  maxIntrospection: 2,
  /** Fields resolved while executing, each list item's counted: what the answer can grow to. */
  maxResolved: 10_000,
};

/** The bounds on a schema, checked at save. */
export const SCHEMA_LIMITS = {
  /** Characters of SDL. */
  maxLength: 512 * 1024,
  /** Tokens of SDL: parsing and building the schema cost about as much per token. */
  maxTokens: 100_000,
};

const INTROSPECTION = new Set(['__schema', '__type']);

/**
 * The query's depth or field count over its limit, as a message; undefined when within. Walks the
 * tree without types (it runs before validation), following each fragment spread; a spread of a
 * fragment already being walked stops there, for validation to report the cycle.
 */
export function shapeProblem(document: DocumentNode): string | undefined {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === 'FragmentDefinition') fragments.set(definition.name.value, definition);
  }
  let fields = 0;
  let introspection = 0;
  let problem: string | undefined;
  const walking = new Set<string>();
  const walk = (set: SelectionSetNode, depth: number): void => {
    for (const selection of set.selections) {
      if (problem) return;
      if (selection.kind === 'Field') {
        if (++fields > QUERY_LIMITS.maxFields) problem = `the query selects more than ${QUERY_LIMITS.maxFields} fields`;
        else if (INTROSPECTION.has(selection.name.value) && ++introspection > QUERY_LIMITS.maxIntrospection) {
          problem = `the query asks for the schema (__schema, __type) more than ${QUERY_LIMITS.maxIntrospection} times`;
        } else if (depth + 1 > QUERY_LIMITS.maxDepth) problem = `the query is nested deeper than ${QUERY_LIMITS.maxDepth} fields`;
        else if (selection.selectionSet) walk(selection.selectionSet, depth + 1);
      } else if (selection.kind === 'InlineFragment') {
        walk(selection.selectionSet, depth);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!fragment || walking.has(name)) continue;
        walking.add(name);
        walk(fragment.selectionSet, depth);
        walking.delete(name);
      }
    }
  };
  for (const definition of document.definitions) {
    if (definition.kind === 'OperationDefinition') walk(definition.selectionSet, 0);
  }
  return problem;
}

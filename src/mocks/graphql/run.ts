import { isDeepStrictEqual } from 'node:util';
import type { DocumentNode, ExecutionResult, GraphQLError } from 'graphql';
import { CpuBudgetExceeded, type CpuBudget } from '../../gates/cpu-budget.js';
import { TemplateError, type TemplateInput } from '../templates/template.js';
import { graphql } from './load.js';
import { QUERY_LIMITS, shapeProblem } from './limits.js';
import { mockResolvers, TooManyFields } from './mocked.js';
import type { PreparedGraphql } from './prepare.js';
import type { GraphqlParams } from './request.js';

/** A `responses` entry of a GraphQL endpoint (docs/mock-api.md, "GraphQL"): the record's shape, which this wing does not import. */
export type GraphqlResponse = {
  when?: { operationName?: string; variables?: Record<string, unknown> };
  statusCode?: number;
  /** `data`, serialized. */
  json?: string;
  errors?: unknown[];
};

/** The answer: its status and GraphQL result; `response` the index of the `responses` entry that answered. */
export type GraphqlAnswer = {
  status: number;
  result: Record<string, unknown>;
  operationName?: string;
  response: number | null;
  /** With a 405: the methods that would do. */
  allow?: string;
};

export type RunOptions = {
  prepared: PreparedGraphql;
  responses: readonly GraphqlResponse[];
  /** What templates in `mocks` see of the request (`args` is added per field). */
  input: TemplateInput;
  cpu: CpuBudget;
  /**
   * The client accepts application/graphql-response+json: a request error (syntax, validation) is
   * a 400. Under application/json it is a 200, as GraphQL-over-HTTP asks for older clients.
   */
  strict: boolean;
};

/** Parses, bounds, validates and answers one request: a matching `responses` entry, else mocked execution. */
export function runGraphql(params: GraphqlParams, options: RunOptions): GraphqlAnswer {
  const { parse, validate, getOperationAST, executeSync, GraphQLError } = graphql();
  const { prepared, strict, cpu } = options;
  const requestError = (errors: readonly GraphQLError[], status = strict ? 400 : 200): GraphqlAnswer => ({
    status,
    result: { errors: errors.map((error) => error.toJSON()) },
    response: null,
  });
  const refused = (message: string, status = 400): GraphqlAnswer => ({ status, result: { errors: [{ message }] }, response: null });

  let document: DocumentNode;
  try {
    document = parse(params.query, { maxTokens: QUERY_LIMITS.maxTokens });
  } catch (err) {
    if (!(err instanceof GraphQLError)) throw err;
    return requestError([err]);
  }
  const problem = shapeProblem(document);
  if (problem) return refused(problem);
  const invalid = validate(prepared.schema, document);
  if (invalid.length > 0) return requestError(invalid);
  cpu.check('the GraphQL query');

  const operation = getOperationAST(document, params.operationName);
  const name = operation?.name?.value;
  const operationName = logged(name);
  if (params.get && operation && operation.operation !== 'query') {
    return { ...refused(`a ${operation.operation} is sent by POST, not GET`, 405), allow: 'POST' };
  }
  const answer = (result: Record<string, unknown>, status: number, response: number | null): GraphqlAnswer => {
    const done: GraphqlAnswer = { status, result, response };
    if (operationName !== undefined) done.operationName = operationName;
    return done;
  };

  const index = options.responses.findIndex(({ when }) => matches(when, name, params.variables));
  if (index >= 0) {
    const { json, errors, statusCode = 200 } = options.responses[index]!;
    const result: Record<string, unknown> = {};
    if (errors) result.errors = errors;
    if (json !== undefined) result.data = JSON.parse(json) as unknown;
    return answer(result, statusCode, index);
  }

  const resolvers = mockResolvers(prepared.schema, prepared.mocks, options.input, cpu);
  const result = executeSync({ schema: prepared.schema, document, operationName: params.operationName, variableValues: params.variables, ...resolvers });
  const stopped = stopper(result);
  if (stopped instanceof CpuBudgetExceeded) return refused(stopped.message, 503);
  // A mock's template that failed answers 500 naming its field, as a REST endpoint's does.
  if (stopped instanceof TemplateError) return refused(stopped.message, 500);
  if (stopped) return refused(stopped.message);
  // Without data the request failed before executing (a variable's value, an unknown operation): a request error.
  if (!('data' in result) || result.data === undefined) return { ...requestError(result.errors ?? []), ...withName(operationName) };
  return answer(result as Record<string, unknown>, 200, null);
}

/** Every part `when` gives matches: the operation's name, and each variable given deep-equal. */
function matches(when: GraphqlResponse['when'], operationName: string | undefined, variables: Record<string, unknown> = {}): boolean {
  if (!when) return true;
  if (when.operationName !== undefined && when.operationName !== operationName) return false;
  for (const [name, value] of Object.entries(when.variables ?? {})) {
    if (!Object.hasOwn(variables, name) || !isDeepStrictEqual(variables[name], value)) return false;
  }
  return true;
}

/**
 * A limit or template failure that stops the whole answer: graphql turns a resolver's throw into a
 * field error and goes on, so it is found among them (every field after it failed the same way).
 */
function stopper(result: ExecutionResult): Error | undefined {
  for (const error of result.errors ?? []) {
    const cause = error.originalError;
    if (cause instanceof CpuBudgetExceeded || cause instanceof TooManyFields || cause instanceof TemplateError) return cause;
  }
  return undefined;
}

/**
 * The operation's name as the request log keeps it: at most 200 characters, and copied, as the
 * parser's name is a slice that would hold the whole query text (up to 64 KiB) for as long as the entry lives.
 */
function logged(name: string | undefined): string | undefined {
  return name === undefined ? undefined : Buffer.from(name.slice(0, 200)).toString();
}

function withName(operationName: string | undefined): { operationName?: string } {
  return operationName === undefined ? {} : { operationName };
}

import { isJsonObject } from '../../http/json-body.js';
import { prepareGraphql, MocksError } from '../graphql/prepare.js';
import { SchemaError } from '../graphql/schema.js';
import { TemplateError } from '../templates/template.js';
import type { MockInput, ResponseRecord, When } from './record.js';
import { bad, checkDelay, checkStatus, objectOf, serialize } from './validate-fields.js';
import { MAX_RESPONSES } from './validate-responses.js';

/**
 * The fields a GraphQL endpoint takes (docs/mock-api.md, "GraphQL"), beside what a GET answer adds.
 * The REST ones (data, methods, template, faults, collections, scenarios, callbacks) are refused:
 * stored, they would look like they did something.
 */
const GRAPHQL_FIELDS = ['name', 'kind', 'path', 'schema', 'mocks', 'responses', 'statusCode', 'delay'];
const ANSWER_FIELDS = ['success', 'hits', 'lastCall', 'created', 'updated', 'url', 'source'];
const RESPONSE_FIELDS = ['when', 'statusCode', 'data', 'errors'] as const;
const WHEN_FIELDS = ['operationName', 'variables'] as const;
/** Most entries of an `errors` list: a test needs one or two. */
const MAX_ERRORS = 100;

/**
 * A record of `"kind": "graphql"`: its schema parsed and built now, so a schema that does not
 * parse is a 400 with its line and column at save, and its `mocks` keys and templates checked
 * against it. `base` holds the name, path, statusCode and delay, checked as for any endpoint.
 */
export function checkGraphql(fields: Record<string, unknown>, base: MockInput, maxDelay: number): MockInput {
  for (const key of Object.keys(fields)) {
    if (!GRAPHQL_FIELDS.includes(key) && !ANSWER_FIELDS.includes(key)) {
      throw bad(key, `a graphql endpoint does not take '${key}': it takes ${GRAPHQL_FIELDS.join(', ')}`);
    }
  }
  if (typeof fields.schema !== 'string' || fields.schema.trim() === '') {
    throw bad('schema', 'schema is required: the GraphQL schema, in SDL');
  }
  const input: MockInput = { ...base, kind: 'graphql', schema: fields.schema };
  if (fields.mocks !== undefined) {
    if (!isJsonObject(fields.mocks)) throw bad('mocks', 'mocks must be an object of Type or Type.field to a value');
    serialize(fields.mocks, 'mocks');
    input.mocks = fields.mocks;
  }
  try {
    prepareGraphql(input.schema!, input.mocks);
  } catch (err) {
    if (err instanceof SchemaError) throw bad('schema', `schema: ${err.message}`);
    if (err instanceof MocksError) throw bad(err.key, `${err.key}: ${err.message}`);
    if (err instanceof TemplateError) throw bad(err.field, err.message);
    throw err;
  }
  if (fields.responses !== undefined) {
    const { responses } = fields;
    if (!Array.isArray(responses)) throw bad('responses', 'responses must be a list of alternative answers');
    if (responses.length > MAX_RESPONSES) throw bad('responses', `responses must hold at most ${MAX_RESPONSES} answers`);
    input.responses = responses.map((item, i) => checkResponse(item, `responses[${i}]`, maxDelay));
  }
  return input;
}

function checkResponse(value: unknown, field: string, maxDelay: number): ResponseRecord {
  const fields = objectOf(value, field, [...RESPONSE_FIELDS, 'delay'], 'an object (an alternative answer)');
  const out: ResponseRecord = {};
  if (fields.when !== undefined) out.when = checkWhen(fields.when, `${field}.when`);
  if (fields.statusCode !== undefined) out.statusCode = checkStatus(fields.statusCode, `${field}.statusCode`);
  if (Object.hasOwn(fields, 'data')) out.json = serialize(fields.data, `${field}.data`);
  if (fields.errors !== undefined) out.errors = checkErrors(fields.errors, `${field}.errors`);
  if (fields.delay !== undefined) out.delay = checkDelay(fields.delay, `${field}.delay`, maxDelay);
  if (out.json === undefined && !out.errors) throw bad(field, `${field} needs errors or data (or both)`);
  return out;
}

function checkWhen(value: unknown, field: string): When {
  const fields = objectOf(value, field, WHEN_FIELDS, 'an object of operationName and variables to match');
  const when: When = {};
  if (fields.operationName !== undefined) {
    if (typeof fields.operationName !== 'string') throw bad(`${field}.operationName`, `${field}.operationName must be a string`);
    when.operationName = fields.operationName;
  }
  if (fields.variables !== undefined) {
    const f = `${field}.variables`;
    if (!isJsonObject(fields.variables)) throw bad(f, `${f} must be an object of variables the request's contain`);
    serialize(fields.variables, f);
    when.variables = fields.variables;
  }
  return when;
}

/** GraphQL's errors: a non-empty list of objects, each with a `message` string; other keys (path, extensions) as given. */
function checkErrors(value: unknown, field: string): Record<string, unknown>[] {
  const rule = `${field} must be a non-empty list of objects, each with a message string`;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_ERRORS) throw bad(field, rule);
  for (const [i, error] of value.entries()) {
    if (!isJsonObject(error) || typeof error.message !== 'string') throw bad(`${field}[${i}]`, rule);
  }
  serialize(value, field);
  return value;
}

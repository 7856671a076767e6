import { HttpError } from '../../http/errors.js';
import { isJsonObject } from '../../http/json-body.js';
import type { MockInput } from './record.js';
import { compileRecord } from './templates.js';
import { TemplateError } from '../templates/template.js';
import {
  bad,
  checkBoolean,
  checkDelay,
  checkFault,
  checkFaultRate,
  checkHeaders,
  checkPayload,
  checkPick,
  checkStatus,
  objectOf,
} from './validate-fields.js';
import { checkCallbacks } from './validate-callbacks.js';
import { checkExpects } from './expects/expects.js';
import { checkContent } from './media/media.js';
import { checkCollection } from './validate-collection.js';
import { checkGraphql } from './validate-graphql.js';
import { checkResponses } from './validate-responses.js';
import { checkMethods, checkPath } from './validate-route.js';
import { checkScenarioName, checkScenarioUse, checkState } from './validate-scenario.js';
import { checkKind, EVENT_FIELDS, parseStreamInput, refuseScriptFields, SOCKET_FIELDS } from './stream-script.js';

export type ValidateOptions = {
  /** Upper bound for `delay`, in milliseconds. */
  maxDelay: number;
  /** Names may hold `/` between segments: a file's path names its endpoints (docs/mock-api.md). */
  nestedNames?: boolean;
};

const NAME = /^[A-Za-z0-9._~-]{1,128}$/;
const NESTED_NAME = /^(?!.{129})[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/;
/**
 * Segments the management API's own routes take under /api/endpoint/ (PUT /api/endpoint/add), in
 * lower case as the router matches without regard to case: an endpoint so named could never be replaced.
 */
const RESERVED_NAMES = new Set(['add']);

const FIELDS = [
  'name',
  'path',
  'methods',
  'statusCode',
  'data',
  'body',
  'base64Body',
  'delay',
  'headers',
  'template',
  'responses',
  'pick',
  'fault',
  'faultRate',
  'collection',
  'scenario',
  'setState',
  'callbacks',
  'expects',
  'validate',
  'content',
  'kind',
  'schema',
  'mocks',
  ...SOCKET_FIELDS.filter((field) => field !== 'responses'),
  ...EVENT_FIELDS,
  // What a GET answer adds: set by the server and not stored, accepted so that answer can be PUT back.
  'success',
  'hits',
  'lastCall',
  'created',
  'updated',
  'url',
  'source',
] as const;

/** Checks an endpoint name (from a body or a URL); throws a 400 naming the field. */
export function checkName(name: unknown, nested = false): string {
  if (name === undefined || name === null) throw bad('name', 'name is required');
  if (typeof name !== 'string') throw bad('name', 'name must be a string');
  if (name === '') throw bad('name', 'name must not be empty');
  if (nested ? !NESTED_NAME.test(name) : !NAME.test(name)) {
    const also = nested ? ', with / between segments' : '';
    throw bad('name', `name must be 1 to 128 characters, each a letter, a digit or one of . _ ~ -${also}`);
  }
  if (name.split('/').some((part) => part === '.' || part === '..')) {
    throw bad('name', "name must not be '.' or '..'");
  }
  if (RESERVED_NAMES.has(name.toLowerCase())) {
    throw bad('name', `name '${name}' is reserved: PUT /api/endpoint/${name} is the API's route that adds endpoints`);
  }
  return name;
}

/**
 * Turns a parsed request body (undefined when empty) into a MockInput, by the rules of
 * docs/mock-api.md. `urlName` is set for PUT /api/endpoint/<name>, where the body's own `name` is
 * optional but must agree. Unknown fields are refused: stored silently, a typo would look saved.
 */
export function parseMockInput(body: unknown, options: ValidateOptions, urlName?: string): MockInput {
  if (body === undefined) throw new HttpError(400, 'the request has no body; send a JSON object');
  if (!isJsonObject(body)) throw new HttpError(400, 'request body must be a JSON object');
  const fields = objectOf(body, '', FIELDS, 'a JSON object');
  let name: string;
  if (urlName === undefined) {
    name = checkName(fields.name, options.nestedNames);
  } else {
    name = checkName(urlName);
    if (fields.name !== undefined && fields.name !== urlName) {
      throw bad('name', `name in the body ('${String(fields.name)}') differs from the name in the URL ('${urlName}')`);
    }
  }
  const kind = fields.kind === undefined ? undefined : checkKind(fields.kind);
  refuseScriptFields(fields, kind);
  if (kind === 'websocket' || kind === 'sse') {
    const path = fields.path === undefined ? undefined : checkPath(fields.path);
    return parseStreamInput(fields, { name, ...(path && { path: path.path }) }, kind, options.maxDelay);
  }
  if (kind === 'graphql' || fields.schema !== undefined || fields.mocks !== undefined) return parseGraphqlInput(fields, name, options);
  const { maxDelay } = options;
  const input: MockInput = {
    name,
    statusCode: fields.statusCode === undefined ? 200 : checkStatus(fields.statusCode, 'statusCode'),
    delay: fields.delay === undefined ? 0 : checkDelay(fields.delay, 'delay', maxDelay),
  };
  const path = fields.path === undefined ? undefined : checkPath(fields.path);
  if (path) input.path = path.path;
  if (fields.methods !== undefined) input.methods = checkMethods(fields.methods);
  checkPayload(fields, '', input, true);
  if (fields.headers !== undefined) input.headers = checkHeaders(fields.headers, 'headers');
  if (fields.template !== undefined) input.template = checkBoolean(fields.template, 'template');
  if (fields.fault !== undefined) input.fault = checkFault(fields.fault, 'fault');
  if (fields.faultRate !== undefined) {
    if (!input.fault) throw bad('faultRate', 'faultRate needs a fault');
    input.faultRate = checkFaultRate(fields.faultRate, 'faultRate');
  }
  if (fields.responses !== undefined) {
    // `/endpoint/<name>` has no parameters.
    const params = path?.params ?? [];
    input.responses = checkResponses(fields.responses, { maxDelay, params, fault: input.fault !== undefined });
  }
  if (fields.pick !== undefined) input.pick = checkPick(fields.pick, 'pick');
  if (fields.scenario !== undefined) input.scenario = checkScenarioName(fields.scenario, 'scenario');
  if (fields.setState !== undefined) input.setState = checkState(fields.setState, 'setState');
  checkScenarioUse(input);
  if (fields.callbacks !== undefined) input.callbacks = checkCallbacks(fields.callbacks, 'callbacks', maxDelay);
  if (fields.expects !== undefined) input.expects = checkExpects(fields.expects, 'expects');
  if (fields.validate !== undefined) input.validate = checkBoolean(fields.validate, 'validate');
  if (fields.content !== undefined) input.content = checkContent(fields.content, 'content');
  if (input.template) checkTemplates(input);
  if (fields.collection !== undefined && checkBoolean(fields.collection, 'collection')) checkCollection(fields, input);
  return input;
}

/** A GraphQL endpoint: its name, path, status and delay as for any, the rest by ./validate-graphql.ts. */
function parseGraphqlInput(fields: Record<string, unknown>, name: string, { maxDelay }: ValidateOptions): MockInput {
  if (fields.kind === undefined) throw bad('kind', 'schema and mocks need "kind": "graphql"');
  const base: MockInput = {
    name,
    statusCode: fields.statusCode === undefined ? 200 : checkStatus(fields.statusCode, 'statusCode'),
    delay: fields.delay === undefined ? 0 : checkDelay(fields.delay, 'delay', maxDelay),
  };
  if (fields.path !== undefined) base.path = checkPath(fields.path).path;
  return checkGraphql(fields, base, maxDelay);
}

/** Compiling now makes a template's syntax error a 400 at save rather than a 500 per request. */
function checkTemplates(input: MockInput): void {
  try {
    compileRecord(input);
  } catch (err) {
    if (err instanceof TemplateError) throw bad(err.field, err.message);
    throw err;
  }
}

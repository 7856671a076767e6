import { isExpectedName, MAX_EXPECTS_BYTES, MAX_MEDIA_TYPES, MAX_PARAMS, type Credential, type ExpectedBody, type ExpectedParam, type Expects } from '../../record/expects/expects.js';
import { asObject } from './media-answer.js';
import { requestSchema } from './request-schema.js';
import { mediaEssence } from '../../../http/read-body.js';

type Json = Record<string, unknown>;

// OpenAPI says these header parameters are ignored: the body's type, content negotiation and credentials have their own fields.
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
const MEDIA_TYPE = /^(\*|[!#$%&'*+.^_`|~0-9a-z-]+)\/(\*|[!#$%&'*+.^_`|~0-9a-z-]+)$/;
// The keywords a Swagger 2.0 parameter holds beside its own fields: its schema.
const SWAGGER_SCHEMA_KEYS = [
  'type', 'format', 'items', 'enum', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'multipleOf',
];

/**
 * What an operation expects of a request, as the record's `expects` (docs/mock-api.md, "Request
 * validation"): its and its path item's parameters, its body and its security requirements.
 * `routeNames` maps each `{name}` that is a whole path segment to the route's parameter. A schema
 * that cannot be kept (circular past its depth, too big) leaves its part unchecked; undefined when
 * the operation expects nothing.
 */
export function expectsOf(operation: Json, item: Json, document: Json, routeNames: Map<string, string>): Expects | undefined {
  const swagger = 'swagger' in document;
  const openapi31 = typeof document.openapi === 'string' && document.openapi.startsWith('3.1');
  const given = new Map<string, Json>();
  for (const param of [...list(item.parameters), ...list(operation.parameters)]) {
    const spec = asObject(param);
    if (typeof spec.name === 'string' && typeof spec.in === 'string') given.set(`${spec.in} ${spec.name}`, spec);
  }
  const params: ExpectedParam[] = [];
  let body: ExpectedBody | undefined;
  for (const spec of given.values()) {
    const place = spec.in as string;
    if (place === 'body' || place === 'formData') {
      body = swaggerBody(spec, body, operation, document, openapi31);
      continue;
    }
    if (!['path', 'query', 'header', 'cookie'].includes(place)) continue;
    let name = spec.name as string;
    // A record holds up to MAX_PARAMS parameters with plain names: others go unchecked.
    if (params.length === MAX_PARAMS || !isExpectedName(name)) continue;
    if (place === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) continue;
    if (place === 'path') {
      const route = routeNames.get(name);
      // A parameter within a segment (`{id}.json`) matches with its text: not checkable alone.
      if (route === undefined) continue;
      name = route;
    }
    const schema = requestSchema(swagger ? pickKeys(spec, SWAGGER_SCHEMA_KEYS) : spec.schema, openapi31);
    const param: ExpectedParam = { in: place as ExpectedParam['in'], name: place === 'header' ? name.toLowerCase() : name };
    if (spec.required === true) param.required = true;
    if (schema) param.schema = schema;
    const explode = swagger ? spec.collectionFormat === 'multi' : spec.explode !== false;
    if (!explode) param.explode = false;
    params.push(param);
  }
  if (!swagger && operation.requestBody !== undefined) body = openapiBody(asObject(operation.requestBody), openapi31);
  const security = securityOf(operation, document, swagger);
  const expects: Expects = {
    ...(params.length > 0 && { params }),
    ...(body && { body }),
    ...(security && { security }),
  };
  return Object.keys(expects).length === 0 ? undefined : bounded(expects);
}

function openapiBody(requestBody: Json, openapi31: boolean): ExpectedBody {
  const content: ExpectedBody['content'] = {};
  for (const [key, media] of Object.entries(asObject(requestBody.content))) {
    const type = mediaEssence(key);
    if (!MEDIA_TYPE.test(type) || Object.keys(content).length === MAX_MEDIA_TYPES) continue;
    const schema = requestSchema(asObject(media).schema, openapi31);
    content[type] = schema ? { schema } : {};
  }
  return { ...(requestBody.required === true && { required: true }), content };
}

/** Swagger 2.0's body parameter (one schema for every type it `consumes`) or its form fields. */
function swaggerBody(spec: Json, body: ExpectedBody | undefined, operation: Json, document: Json, openapi31: boolean): ExpectedBody {
  const form = spec.in === 'formData';
  const consumes = strings(operation.consumes ?? document.consumes);
  const types = form
    ? consumes.filter((type) => /^(application\/x-www-form-urlencoded|multipart\/form-data)$/i.test(type))
    : consumes.length > 0 ? consumes : ['application/json'];
  const schema = form ? undefined : requestSchema(spec.schema, openapi31);
  const content: ExpectedBody['content'] = { ...body?.content };
  for (const type of types.map(mediaEssence).filter((t) => MEDIA_TYPE.test(t)).slice(0, MAX_MEDIA_TYPES)) {
    content[type] = schema ? { schema } : {};
  }
  const required = body?.required || (!form && spec.required === true);
  return { ...(required && { required: true }), content };
}

/**
 * The operation's security requirements (else the document's) as alternatives of credentials; none
 * when any alternative is empty (anyone may call) or names a scheme whose presence cannot be seen
 * (mutual TLS, an undefined scheme): such an alternative could always be the one a client meets.
 */
function securityOf(operation: Json, document: Json, swagger: boolean): Credential[][] | undefined {
  const requirements = list(operation.security ?? document.security);
  if (requirements.length === 0) return undefined;
  const schemes = asObject(swagger ? document.securityDefinitions : asObject(document.components).securitySchemes);
  const alternatives: Credential[][] = [];
  for (const requirement of requirements) {
    const names = Object.keys(asObject(requirement));
    if (names.length === 0) return undefined;
    const credentials = names.map((name) => credentialOf(asObject(schemes[name])));
    if (credentials.some((credential) => credential === undefined)) return undefined;
    alternatives.push(credentials as Credential[]);
  }
  return alternatives;
}

function credentialOf(scheme: Json): Credential | undefined {
  const { type } = scheme;
  if (type === 'apiKey' && typeof scheme.name === 'string' && isExpectedName(scheme.name) && ['header', 'query', 'cookie'].includes(scheme.in as string)) {
    const place = scheme.in as Credential['in'];
    return { in: place, name: place === 'header' ? scheme.name.toLowerCase() : scheme.name };
  }
  if (type === 'basic') return { in: 'header', name: 'authorization', scheme: 'basic' };
  if (type === 'http' && typeof scheme.scheme === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(scheme.scheme)) {
    return { in: 'header', name: 'authorization', scheme: scheme.scheme.toLowerCase() };
  }
  if (type === 'oauth2' || type === 'openIdConnect') return { in: 'header', name: 'authorization', scheme: 'bearer' };
  return undefined;
}

/** Within the record's bound: body schemas go first, then parameters' schemas. */
function bounded(expects: Expects): Expects | undefined {
  const fits = () => JSON.stringify(expects).length <= MAX_EXPECTS_BYTES;
  if (fits()) return expects;
  if (expects.body) expects.body.content = Object.fromEntries(Object.keys(expects.body.content).map((type) => [type, {}]));
  if (fits()) return expects;
  for (const param of expects.params ?? []) delete param.schema;
  return fits() ? expects : undefined;
}

function pickKeys(spec: Json, keys: string[]): Json {
  return Object.fromEntries(keys.filter((key) => spec[key] !== undefined).map((key) => [key, spec[key]]));
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function strings(value: unknown): string[] {
  return list(value).filter((item): item is string => typeof item === 'string');
}

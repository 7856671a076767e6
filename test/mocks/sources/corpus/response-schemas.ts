import { bundle } from '@readme/openapi-parser';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { anchorRefs } from '../../../../src/mocks/sources/openapi/anchor-refs.js';

type Json = Record<string, any>;

// Patterns as documents write them (`\\:` and the like are refused under the `u` flag).
const AJV_OPTIONS = { strict: false, validateSchema: false, logger: false, unicodeRegExp: false, inlineRefs: false } as const;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** One operation: how to call it, the status it should answer, and how to judge the body. */
export type CorpusOperation = {
  /** `GET /pets/{id}`, as the gaps table names it. */
  label: string;
  method: string;
  /** Under /endpoint, path parameters filled with `1`. */
  url: string;
  status: number;
  /** A media type of the success response, and what its body may be. */
  media: Map<string, { validate?: ValidateFunction; examples: unknown[] }>;
};

/**
 * Every operation of a document, judged independently of the code under test: the document is
 * bundled (external files made internal, nothing expanded) by the parser, and each response schema
 * compiled by ajv against the bundle in the dialect the document declares: JSON Schema 2020-12 for
 * OpenAPI 3.1, draft-04 as OpenAPI 3.0 and Swagger 2.0 amend it (nullable, boolean exclusive bounds).
 */
export async function corpusOperations(file: string): Promise<CorpusOperation[]> {
  // The document read as the loader reads it (the `yaml` package: the parser's own refuses a block
  // scalar of OpenAI's), its relative $refs made file: URLs for the parser to read.
  const root = parse(readFileSync(file, 'utf8'), { maxAliasCount: -1 }) as Json;
  anchorRefs(file, root);
  const document = (await bundle(root as never, { resolve: { file: true } } as never)) as Json;
  const swagger = 'swagger' in document;
  const modern = /^3\.1\./.test(String(document.openapi));
  const ajv = modern
    ? new Ajv2020(AJV_OPTIONS)
    : new Ajv(AJV_OPTIONS);
  addFormats.default(ajv);
  ajv.addSchema(amend(document, !modern), 'doc.json');
  const compiled = new Map<string, ValidateFunction>();
  const compile = (pointer: string) => {
    let known = compiled.get(pointer);
    if (!known) compiled.set(pointer, (known = ajv.compile({ $ref: `doc.json#${pointer}` })));
    return known;
  };

  const operations: CorpusOperation[] = [];
  for (const [template, itemAt] of Object.entries(document.paths ?? {})) {
    const [item, itemPointer] = follow(document, itemAt, `/paths/${escape(template)}`);
    for (const method of METHODS.filter((m) => m in item)) {
      const [operation, at] = follow(document, item[method], `${itemPointer}/${method}`);
      const [key, status] = successOf(Object.keys(operation.responses ?? {}));
      const media = new Map<string, { validate?: ValidateFunction; examples: unknown[] }>();
      if (key !== undefined) {
        const [response, responseAt] = follow(document, operation.responses[key], `${at}/responses/${escape(key)}`);
        const types = swagger ? swaggerTypes(response, operation.produces ?? document.produces) : response.content ?? {};
        for (const [type, content] of Object.entries(types as Json)) {
          const schemaAt = swagger ? `${responseAt}/schema` : `${responseAt}/content/${escape(type)}/schema`;
          const schema = (content as Json).schema;
          const examples = examplesOf(document, content as Json, swagger ? response.examples?.[type] : undefined);
          media.set(type, { validate: schema === undefined ? undefined : compile(schemaAt), examples });
        }
      }
      const url = template.replace(/\{[^}]*\}/g, '1');
      operations.push({ label: `${method.toUpperCase()} ${template}`, method: method.toUpperCase(), url, status, media });
    }
  }
  return operations;
}

/** The status the mapping makes an operation's own answer (docs/mock-api.md, "Statuses"). */
function successOf(keys: string[]): [string | undefined, number] {
  const served = new Map<number, string>();
  for (const key of keys) if (/^[2-5]\d\d$/.test(key)) served.set(Number(key), key);
  for (const key of keys) if (/^[2-5]XX$/i.test(key) && !served.has(Number(key[0]) * 100)) served.set(Number(key[0]) * 100, key);
  if (keys.includes('default') && !served.has(served.size === 0 ? 200 : 500)) served.set(served.size === 0 ? 200 : 500, 'default');
  const codes = [...served.keys()].sort((a, b) => a - b);
  const status = codes.find((code) => code >= 200 && code < 300) ?? codes[0] ?? 200;
  return [served.get(status), status];
}

function swaggerTypes(response: Json, produces: unknown): Json {
  const types = new Set([...(Array.isArray(produces) ? produces : []), ...Object.keys(response.examples ?? {}), 'application/json']);
  return Object.fromEntries([...types].map((type) => [type, { schema: response.schema }]));
}

/** The document's own examples for one media type: `example`, each Example Object's `value`, the schema's `example`. */
function examplesOf(document: Json, content: Json, swaggerExample: unknown): unknown[] {
  const found: unknown[] = [];
  if (swaggerExample !== undefined) found.push(swaggerExample);
  if (content.example !== undefined) found.push(content.example);
  for (const entry of Object.values(content.examples ?? {})) {
    const [example] = follow(document, entry, '');
    if (example?.value !== undefined) found.push(example.value);
  }
  const [schema] = follow(document, content.schema, '');
  if (schema?.example !== undefined) found.push(schema.example);
  for (const value of Array.isArray(schema?.examples) ? schema.examples : []) found.push(value);
  return found;
}

/** Whether a body is valid for one media type: its schema accepts it, or it is one of the examples. */
export function judge(entry: { validate?: ValidateFunction; examples: unknown[] }, body: unknown): string | undefined {
  if (entry.examples.some((example) => isDeepStrictEqual(example, body))) return undefined;
  if (!entry.validate || entry.validate(body)) return undefined;
  const [error] = entry.validate.errors ?? [];
  return error ? `${error.instancePath || '/'} ${error.message}` : 'invalid';
}

/** An object the bundle holds at `value` (following a local `$ref`), and its pointer. */
function follow(document: Json, value: any, at: string): [Json, string] {
  for (let hops = 0; typeof value?.$ref === 'string' && value.$ref.startsWith('#') && hops < 20; hops++) {
    at = value.$ref.slice(1);
    value = at.split('/').slice(1).reduce((node: any, key) => node?.[decodeURIComponent(key).replaceAll('~1', '/').replaceAll('~0', '~')], document);
  }
  return [value ?? {}, at];
}

function escape(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

// Values that are data, not schemas: left as written.
const DATA = new Set(['default', 'enum', 'const']);
// Example data, left out of what ajv reads: it looks into every key, and an example's `$id` is an id to it.
const EXAMPLES = new Set(['example', 'examples', 'x-example']);

/**
 * The document as ajv is to read it, without its example data, a boolean `exclusiveMinimum` making
 * `minimum` exclusive. For OpenAPI 3.0 and Swagger 2.0
 * (`draft4`), schemas are restated in a form ajv's draft-07 reads as they mean it: `nullable`
 * (`x-nullable`) adds null; Swagger's
 * `type: file` is any value; a `writeOnly` property is not required in a response.
 */
function amend(document: Json, draft4: boolean): Json {
  // `names`: the keys of `node` are property names (under `properties`), not keywords.
  const walk = (node: any, names = false): any => {
    if (typeof node !== 'object' || node === null) return node;
    if (Array.isArray(node)) return node.map((item) => walk(item));
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (names) out[key] = walk(value);
      else if (!EXAMPLES.has(key)) out[key] = DATA.has(key) ? value : walk(value, key === 'properties');
    }
    if (names) return out;
    // ajv reads `nullable` itself, but only beside a `type`: for 3.0 it is restated and removed; in
    // 3.1 it means nothing (OpenAI's description still writes it).
    const nullable = draft4 && (out.nullable === true || out['x-nullable'] === true);
    delete out.nullable;
    // Boolean exclusive bounds (draft-04; OpenAI's 3.1 description writes them too) as numbers.
    for (const bound of ['Minimum', 'Maximum'] as const) {
      const flag = out[`exclusive${bound}`];
      if (flag === true) out[`exclusive${bound}`] = out[bound.toLowerCase()];
      if (typeof flag === 'boolean') {
        if (flag) delete out[bound.toLowerCase()];
        else delete out[`exclusive${bound}`];
      }
    }
    if (!draft4) return out;
    if (out.type === 'file') delete out.type;
    if (Array.isArray(out.required) && typeof out.properties === 'object' && out.properties !== null) {
      out.required = out.required.filter((name: string) => out.properties[name]?.writeOnly !== true);
    }
    if (nullable) {
      if (typeof out.type === 'string') out.type = [out.type, 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
      if (out.type === undefined) return { anyOf: [out, { type: 'null' }] };
    }
    return out;
  };
  return walk(document);
}

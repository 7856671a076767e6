import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { loadOpenapi } from '../../../src/mocks/sources/openapi/load-document.js';

type Json = Record<string, any>;

/** One operation of a document: how to call it and the schema of each documented status's JSON body. */
export type Operation = { method: string; url: string; statuses: Map<string, Json | undefined> };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation of the document in `file`, its path parameters filled with `1`. */
export async function operationsOf(file: string, text: string): Promise<Operation[]> {
  const document = (await loadOpenapi(file, text)) as Json;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const method of METHODS.filter((m) => m in item)) {
      const statuses = new Map<string, Json | undefined>();
      for (const [status, response] of Object.entries((item[method] as Json).responses as Json)) {
        statuses.set(status, jsonSchema(response as Json));
      }
      operations.push({ method: method.toUpperCase(), url: path.replace(/\{[^}]*\}/g, '1'), statuses });
    }
  }
  return operations;
}

/** The schema of a response's JSON body (OpenAPI 3 media type, or Swagger 2's one schema). */
function jsonSchema(response: Json): Json | undefined {
  if ('schema' in response) return response.schema as Json;
  const content = (response.content ?? {}) as Json;
  const type = Object.keys(content).find((t) => /json/.test(t));
  return type === undefined ? undefined : (content[type].schema as Json | undefined);
}

/** A validator that knows OpenAPI 3.0's `nullable` and ignores its other keywords (`example`, `xml`). */
export function schemaChecker(): (schema: Json, value: unknown) => string | undefined {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return (schema, value) => {
    const validate = ajv.compile(withNull(structuredClone(schema)) as Json);
    return validate(value) ? undefined : ajv.errorsText(validate.errors);
  };
}

function withNull(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  if (Array.isArray(schema)) return schema.map(withNull);
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) out[key] = withNull(value);
  if (out.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

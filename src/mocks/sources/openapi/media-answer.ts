import { sample } from 'openapi-sampler';
import { sampleJson } from '../../sample/sample-json.js';

/** What one documented response answers with, in the endpoint record's terms. */
export type MediaAnswer = { data: unknown } | { body: string; contentType?: string };

type Json = Record<string, unknown>;

// XML's depth: a self-referencing schema stops here instead of recursing.
const SAMPLE_DEPTH = 8;

/**
 * The answer for one response object of a dereferenced document (`spec` holds what circular
 * `$ref`s point at). JSON media types come first; the example wins over a sample of the schema.
 * `produces` is given for Swagger 2.0 only: the operation's media types, else the document's.
 */
export function mediaAnswer(response: Json, spec: Json, produces?: string[]): MediaAnswer {
  const media = produces ? swaggerMedia(response, produces) : asObject(response.content);
  const types = Object.keys(media);
  const type = types.find(isJsonType) ?? types.find(isTextType) ?? types[0];
  if (type === undefined) return { body: '' };
  const content = asObject(media[type]);
  const schema = content.schema === undefined ? undefined : asObject(content.schema);
  const xml = /[/+]xml\b/i.test(type);
  const found = exampleOf(content) ?? (schema ? sampled(schema, spec, xml) : undefined);
  if (isJsonType(type)) {
    const value = found ?? null;
    if (/^application\/json\s*(;|$)/i.test(type)) return { data: value };
    return { body: JSON.stringify(value), contentType: type };
  }
  if (typeof found === 'string') return { body: found, contentType: type };
  // Binary and other types have no sensible text: an empty body of the documented type.
  if (!isTextType(type) || found === undefined) return { body: '', contentType: type };
  return { body: JSON.stringify(found), contentType: type };
}

/** Swagger 2 keeps one schema per response and examples by media type; `produces` names the types. */
function swaggerMedia(response: Json, produces: string[]): Json {
  const examples = asObject(response.examples);
  const types = [...new Set([...Object.keys(examples), ...produces, 'application/json'])];
  if (response.schema === undefined && Object.keys(examples).length === 0) return {};
  return Object.fromEntries(
    types.map((type) => [type, { schema: response.schema, ...(type in examples && { example: examples[type] }) }]),
  );
}

/** The media type's `example`, else its first `examples` value (an inline one: `externalValue` is not read). */
function exampleOf(content: Json): unknown {
  if (content.example !== undefined) return content.example;
  for (const example of Object.values(asObject(content.examples))) {
    const value = asObject(example).value;
    if (value !== undefined) return value;
  }
  return undefined;
}

/** JSON from sample-json.ts (valid for the schema, bounded); XML from openapi-sampler, which writes it. */
function sampled(schema: Json, spec: Json, xml: boolean): unknown {
  if (!xml) return sampleJson(schema, spec);
  const options = { skipWriteOnly: true, maxSampleDepth: SAMPLE_DEPTH, quiet: true, format: 'xml' };
  try {
    return sample(schema as never, options as never, spec);
  } catch {
    // A schema the sampler cannot follow (an XML shape it cannot build): fall back to JSON.
    return sampled(schema, spec, false);
  }
}

function isJsonType(type: string): boolean {
  return /^application\/(.+\+)?json\s*(;|$)/i.test(type) || type === '*/*';
}

function isTextType(type: string): boolean {
  return /^text\//i.test(type) || /[/+]xml\b/i.test(type);
}

/** `value` when it is a plain object, else an empty one: documents are read leniently past validation. */
export function asObject(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

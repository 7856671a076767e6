import { bundle, dereference, ResolverError, validate, type ParserOptions } from '@readme/openapi-parser';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileRefused, readGatedFile, type FileGate } from '../../../gates/file-gate.js';
import { MAX_SOURCE_FILE_BYTES } from '../read-source.js';
import { parse, YAMLParseError } from 'yaml';
import { describeJsonError } from '../../../shared/json-check.js';
import { placeError, type PlacedError } from './error-place.js';
import { documentParts } from './document-parts.js';
import { isOpenapi } from './is-openapi.js';
import { anchorRefs, RefRefused } from './anchor-refs.js';
import { restoreExampleRefs, shieldExampleRefs } from './example-refs.js';
import { inlineOperationRefs, METHODS, operationPointer } from './operation-refs.js';

/** A document that cannot be read, with the file and the place named in its message. */
export class OpenapiError extends Error {
  override name = 'OpenapiError';
}

/** A parsed, validated document with every `$ref` replaced, but for circular ones (left as `$ref`). */
export type OpenapiDocument = Exclude<Parameters<typeof validate>[0], string>;

// Dereferencing a hostile document (deep or wide $ref fan-out) must end.
const DEREFERENCE_MS = 10_000;

/**
 * Parses `text` (the content of `file`, JSON or YAML) as an OpenAPI 3.0/3.1 or Swagger 2.0
 * document, validates it and resolves its `$ref`s. A `$ref` to another file is read relative to
 * `file`, through the Files gate: only regular files in the document's own folder (links followed),
 * at most MAX_SOURCE_FILE_BYTES each, are read, and so for a `$ref` in a referenced file too. One over
 * the network is refused, never fetched: the document is input, and a mock server (or `mock import`,
 * which uploads what it reads) must not reach out to hosts or files a document names. An operation
 * given as a `$ref` that cannot be read, or that does not validate, is left out with a line in `skipped`.
 */
export async function loadOpenapi(file: string, text: string, skipped: string[] = []): Promise<OpenapiDocument> {
  const value = parseText(file, text);
  if (!isOpenapi(value)) {
    throw new OpenapiError(`${file} is not an OpenAPI document: it has no top-level 'openapi' or 'swagger' key`);
  }
  const document = value as OpenapiDocument;
  shieldExampleRefs(document);
  try {
    anchorRefs(file, document);
  } catch (err) {
    if (err instanceof RefRefused) throw new OpenapiError(`${file}: ${err.message}`);
    throw err;
  }
  const gate = { root: dirname(resolve(file)), maxBytes: MAX_SOURCE_FILE_BYTES, rootName: "the document's folder" };
  inlineOperationRefs(document, gate, skipped);
  const options = parserOptions(gate);
  let dereferenced = await readRefs(file, document, options);
  // An operation that does not validate is left out, and the rest checked again. The validator's
  // own checks (path parameters, duplicate operationIds) run only once its schema passes: a second
  // round finds theirs. An error outside the operations refuses the document.
  for (let round = 1; ; round++) {
    const invalid = await problems(file, document, dereferenced, options, text);
    if (!invalid) break;
    const placed = invalid.errors.map((error) => ({ ...error, operation: operationOf(error.pointer) }));
    if (round === 3 || placed.some((error) => !error.operation)) refuse(file, invalid.specification, placed);
    for (const { message, operation } of placed) {
      const [template, method] = operation!;
      const where = message.includes('(#/') ? '' : ` (${operationPointer(template, method)})`;
      skipped.push(`${method.toUpperCase()} ${template}: ${message}${where}`);
      delete (document.paths as Record<string, Record<string, unknown>>)[template]![method];
    }
    dereferenced = await readRefs(file, document, options);
  }
  restoreExampleRefs(dereferenced);
  return dereferenced;
}

type Invalid = { specification: string | null; errors: PlacedError[] };

/**
 * The document with its `$ref`s replaced. It is bundled first, so that a circular `$ref` the parser
 * leaves is a pointer into the document (`#/components/...`) that the sampler can follow, not the
 * URL of another file (DigitalOcean's gen-ai schemas).
 */
async function readRefs(file: string, document: OpenapiDocument, options: ParserOptions): Promise<OpenapiDocument> {
  try {
    return await dereference(await bundle(structuredClone(document), options), options);
  } catch (err) {
    throw new OpenapiError(`${file} cannot be read: ${(err as Error).message}`);
  }
}

/**
 * What the validator finds wrong, each error placed in the file; undefined for a valid document.
 * The validator words an error over its whole dereferenced document printed as JSON, parsed into a
 * syntax tree of some 60 bytes a byte: 1 GB for DigitalOcean's description with one bad operation.
 * So the paths are checked in parts (document-parts.ts), and one error costs what its part does.
 */
async function problems(
  file: string,
  document: OpenapiDocument,
  dereferenced: OpenapiDocument,
  options: ParserOptions,
  text: string,
): Promise<Invalid | undefined> {
  let specification: string | null = null;
  const errors = new Map<string, PlacedError>();
  for (const part of documentParts(document as Record<string, unknown>, dereferenced as Record<string, unknown>)) {
    let result;
    try {
      // validate() dereferences what it is given, in place.
      result = await validate(structuredClone(part.cut(document)), options);
    } catch (err) {
      throw new OpenapiError(`${file} cannot be read: ${(err as Error).message}`);
    }
    if (result.valid) continue;
    specification = result.specification;
    // Its messages point into its dereferenced part; an error outside the paths comes once a part.
    const seen = part.cut(dereferenced);
    for (const error of result.errors) {
      const placed = placeError(error.message, seen, text);
      errors.set(placed.message, { ...placed, pointer: placed.pointer ?? pointerInWords(placed.message) });
    }
  }
  return errors.size > 0 ? { specification, errors: [...errors.values()] } : undefined;
}

/** The operation the validator's own checks name in words: `/paths/users/{id}/get` is missing ... */
function pointerInWords(message: string): string[] | undefined {
  const named = new RegExp(`^\`/paths(/.*)/(${METHODS.join('|')})\``).exec(message);
  return named ? ['paths', named[1]!, named[2]!] : undefined;
}

/** The path and method of the operation a pointer is in (`paths`, `/users`, `get`, ...). */
function operationOf(pointer: string[] | undefined): [string, string] | undefined {
  if (!pointer || pointer[0] !== 'paths' || pointer.length < 3) return undefined;
  return METHODS.includes(pointer[2]!) ? [pointer[1]!, pointer[2]!] : undefined;
}

function refuse(file: string, specification: string | null, errors: PlacedError[]): never {
  const lines = errors.map((error) => `  ${error.message}`).join('\n');
  throw new OpenapiError(`${file} is not a valid ${specification ?? 'OpenAPI'} document:\n${lines}`);
}

function parseText(file: string, text: string): unknown {
  if (/^\s*[[{]/.test(text)) {
    const problem = describeJsonError(text);
    if (problem === undefined) return JSON.parse(text);
    // JSON is YAML too, but a JSON file's error reads better in JSON's terms.
    if (file.toLowerCase().endsWith('.json')) throw new OpenapiError(`${file} is not valid JSON: ${problem}`);
  }
  try {
    return parse(text, { maxAliasCount: 1000 });
  } catch (err) {
    if (!(err instanceof YAMLParseError)) throw err;
    const what = err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:$/, '');
    const at = err.linePos ? ` at line ${err.linePos[0].line}, column ${err.linePos[0].col}` : '';
    throw new OpenapiError(`${file} is not valid YAML: ${what}${at}`);
  }
}

function parserOptions(gate: FileGate): ParserOptions {
  // The http resolver cannot be switched off by a documented option: its canRead is replaced so
  // that a $ref in a file beside the document, over the network, fails instead of being fetched.
  const http = { canRead: () => false, timeout: 1 };
  // Every file the parser reads, the document's nested $refs included, is read here. The parser takes a
  // resolver object for `file` (convertFileResolverOption in its source) though its types say boolean:
  // https://github.com/APIDevTools/swagger-parser/issues/189
  const file = {
    order: 100,
    canRead: (target: { url: string }) => !/^[a-z][a-z0-9+.-]*:/i.test(target.url) || /^file:/i.test(target.url),
    read: async (target: { url: string }) => gatedRead(target.url, gate),
  } as unknown as boolean;
  return {
    dereference: { circular: 'ignore' },
    resolve: { external: true, file, http },
    timeoutMs: DEREFERENCE_MS,
  };
}

/** A file a $ref names, or the parser's ResolverError saying which and why not. */
function gatedRead(url: string, gate: FileGate): Buffer {
  let path = url;
  try {
    path = /^file:/i.test(url) ? fileURLToPath(url) : url;
    return readGatedFile(path, gate);
  } catch (err) {
    const why = err instanceof FileRefused ? err.reason : (err as Error).message;
    throw new ResolverError(new Error(`$ref to ${path}: ${why}`), path);
  }
}

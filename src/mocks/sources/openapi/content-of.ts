import type { Content, MediaContent } from '../../record/media/media.js';
import { asObject, mediaAnswer } from './media-answer.js';
import { requestSchema } from './request-schema.js';
import { mediaEssence } from '../../../http/read-body.js';

type Json = Record<string, unknown>;

// A record may hold 32 KiB schemas; the import keeps those of at most 8 KiB: Kubernetes' 1,117 operations
// came to 88 MB of records (--max-store-bytes) with up to 32 KiB each, 44.5 MB so (19 MB before `content`
// and `expects`).
const KEPT_SCHEMA_BYTES = 8 * 1024;

/**
 * A response's `content` for the record (docs/mock-api.md, "Media types and named examples"): each
 * documented media type, with its answer (as media-answer.ts makes the answer's own, left out for
 * `own`, which the record's data or body holds), its named `examples` (inline values; `externalValue`
 * is not read) and its schema for `Prefer: dynamic=true` (left out past KEPT_SCHEMA_BYTES).
 * Swagger 2.0 keeps one schema for every type: only that schema, for `own`. Undefined when there is
 * nothing another request could choose.
 */
export function contentOf(response: Json, document: Json, swagger: boolean, own: string | undefined): Content | undefined {
  const openapi31 = typeof document.openapi === 'string' && document.openapi.startsWith('3.1');
  const content: Content = {};
  if (swagger) {
    const schema = schemaOf(response.schema, openapi31);
    if (own && schema) content[own] = { schema };
  } else {
    for (const [key, media] of Object.entries(asObject(response.content))) {
      const type = mediaEssence(key);
      if (!/^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/.test(type) || type in content) continue;
      const spec = asObject(media);
      const entry: MediaContent = {};
      if (type !== own) Object.assign(entry, valueOf(mediaAnswer({ content: { [key]: spec } }, document)));
      const examples = Object.entries(asObject(spec.examples)).filter(([name, example]) => asObject(example).value !== undefined && /^[\x21-\x7e]{1,128}$/.test(name) && name !== '__proto__');
      if (examples.length > 0) {
        entry.examples = Object.fromEntries(examples.slice(0, 50).map(([name, example]) => [name, exampleValue(asObject(example).value, type)]));
      }
      const schema = schemaOf(spec.schema, openapi31);
      if (schema) entry.schema = schema;
      content[type] = entry;
      if (Object.keys(content).length === 20) break;
    }
  }
  const types = Object.keys(content);
  const useful = types.length > 1 || types.some((type) => content[type]!.examples || content[type]!.schema);
  return useful ? content : undefined;
}

function valueOf(answer: ReturnType<typeof mediaAnswer>): MediaContent {
  return 'data' in answer ? { data: answer.data } : { body: answer.body };
}

function exampleValue(value: unknown, type: string): { data?: unknown; body?: string } {
  if (/^application\/(.+\+)?json$/.test(type)) return { data: value };
  return { body: typeof value === 'string' ? value : JSON.stringify(value) };
}

function schemaOf(schema: unknown, openapi31: boolean): Json | undefined {
  if (schema === undefined) return undefined;
  const converted = requestSchema(schema, openapi31);
  return converted && JSON.stringify(converted).length <= KEPT_SCHEMA_BYTES ? converted : undefined;
}

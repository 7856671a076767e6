import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { mediaEssence } from '../../http/read-body.js';
import type { StoredMock } from '../record/record.js';
import type { Content, MediaContent } from '../record/media/media.js';
import type { Answer } from './responder.js';
import { preference } from './status-choice.js';
import { randomSample } from '../sample/random-sample.js';
import { jsonAnswer } from './send.js';

// Loaded at the first `Prefer: dynamic=true`, not at every start (bundled code finds it in node_modules).
const require = createRequire(import.meta.url);
let sampler: typeof import('openapi-sampler') | undefined;
// As deep as the import samples: a self-referencing schema stops there.
const SAMPLE_DEPTH = 8;

/** A request's choice refused: 406 (no acceptable type) or 422 (no such example), with what there is. */
export type MediaRefusal = { refused: 406 | 422; message: string; field: string };

/** chooseMedia's answer, a refusal as the server's JSON error (with the media types there are, for a 406). */
export function mediaAnswer(req: IncomingMessage, content: Content, answer: Answer, cors: boolean): Answer {
  const chosen = chooseMedia(req, content, answer);
  if (!('refused' in chosen)) return chosen;
  const { refused, message, field } = chosen;
  return jsonAnswer(refused, { success: false, message, field, ...(refused === 406 && { types: Object.keys(content) }) }, cors);
}

/**
 * The answer in the media type the request's `Accept` prefers among those the answer has (its own
 * first on a tie), with the named example `Prefer: example=NAME` asks for, or with a fresh sample of
 * the type's schema for `Prefer: dynamic=true`; `answer` itself when nothing asks for another. Only
 * for answers with `content` (docs/mock-api.md, "Media types and named examples").
 */
export function chooseMedia(req: IncomingMessage, content: Content, answer: Answer): Answer | MediaRefusal {
  const types = Object.keys(content);
  const at = answer.head.findIndex((value, i) => i % 2 === 0 && value.toLowerCase() === 'content-type');
  const own = at === -1 ? undefined : mediaEssence(answer.head[at + 1]);
  const accept = req.headers.accept;
  const type = accept === undefined ? (own !== undefined && types.includes(own) ? own : types[0]) : negotiate(accept, types, own);
  if (type === undefined) {
    return { refused: 406, message: `no media type here is acceptable (Accept: ${accept}); this answer has ${types.join(', ')}`, field: 'accept' };
  }
  const prefer = req.headers.prefer as string | undefined;
  const example = prefer === undefined ? undefined : preference(prefer, 'example');
  const dynamic = prefer !== undefined && preference(prefer, 'dynamic') === 'true';
  const media = content[type]!;
  let value: { data?: unknown; body?: string } | undefined;
  // A name asked of an answer without named examples is ignored, as other preferences are.
  if (example !== undefined && media.examples) {
    if (!Object.hasOwn(media.examples, example)) {
      const there = Object.keys(media.examples).join(', ');
      return { refused: 422, message: `no example named '${example}' for ${type} here; its examples are ${there}`, field: 'prefer' };
    }
    value = media.examples[example];
  } else if (dynamic && media.schema) {
    value = { data: /[/+]xml$/.test(type) ? sampled(media.schema, type) : randomSample(media.schema, (schema) => sampled(schema, type)) };
  }
  if (value === undefined) {
    if (type === own) return answer;
    value = media;
  }
  const body = Buffer.from(textOf(value, type));
  const head = [...answer.head];
  if (at === -1) head.push('Content-Type', type);
  else head[at + 1] = type;
  const length = head.findIndex((name, i) => i % 2 === 0 && name === 'Content-Length');
  if (length !== -1) head[length + 1] = String(body.length);
  return { status: answer.status, head, body };
}

/** The content of the answer a variant sends: its own, or for the endpoint's own answer the record's. */
export function contentOf(record: StoredMock, index: number | null): Content | undefined {
  return index === null ? record.content : record.responses?.[index]?.content;
}

/**
 * The type `accept` (RFC 9110 12.5.1) rates highest among `types`: each rated by the most specific
 * range that matches it (`text/html` over `text/*` over `*\/*`), q=0 excluded; a tie goes to `own`,
 * then to the order of `types`. Ranges past the 64th are not read.
 */
function negotiate(accept: string, types: string[], own: string | undefined): string | undefined {
  const ranges = accept.split(',', 64).map((part) => {
    const [range = '', ...params] = part.split(';');
    const q = params.map((param) => /^\s*q\s*=\s*([01](\.\d{0,3})?)\s*$/i.exec(param)?.[1]).find((found) => found !== undefined);
    return { range: range.trim().toLowerCase(), q: q === undefined ? 1 : Number(q) };
  });
  let best: { type: string; q: number } | undefined;
  for (const type of own !== undefined && types.includes(own) ? [own, ...types.filter((t) => t !== own)] : types) {
    const [main] = type.split('/');
    const match = ranges.find((r) => r.range === type) ?? ranges.find((r) => r.range === `${main}/*`) ?? ranges.find((r) => r.range === '*/*');
    if (match && match.q > 0 && (!best || match.q > best.q)) best = { type, q: match.q };
  }
  return best?.type;
}

function sampled(schema: Record<string, unknown>, type: string): unknown {
  sampler ??= require('openapi-sampler') as typeof import('openapi-sampler');
  const xml = /[/+]xml$/.test(type);
  const options = { skipReadOnly: false, skipWriteOnly: true, maxSampleDepth: SAMPLE_DEPTH, quiet: true, ...(xml && { format: 'xml' }) };
  try {
    return sampler.sample(schema as never, options as never);
  } catch {
    return xml ? sampler.sample(schema as never, { ...options, format: undefined } as never) : null;
  }
}

function textOf(value: MediaContent, type: string): string {
  if (value.body !== undefined) return value.body;
  if (typeof value.data === 'string' && !/^application\/(.+\+)?json$/.test(type)) return value.data;
  return JSON.stringify(value.data ?? null) ?? 'null';
}


import {
  expressionCount,
  GRAPHQL_TOKEN_BYTES,
  jsonCost,
  RECORD_BYTES,
  TEMPLATE_EXPRESSION_BYTES,
  TEMPLATE_FACTOR,
  TEXT_FACTOR,
  textCost,
} from '../../gates/memory-budget.js';
import type { MockInput } from './record.js';

// A record never changes once stored: its cost is worked out once.
const costs = new WeakMap<MockInput, number>();

/**
 * What keeping `record` costs in memory (../../gates/memory-budget.ts): its data and body texts,
 * kept as text and served from a Buffer; the parsed rest (headers, `when`, responses' fields); and
 * for a template, its compiled expressions. Charged to the store's `records` budget (--max-store-bytes).
 */
export function recordCost(record: MockInput): number {
  let cost = costs.get(record);
  if (cost !== undefined) return cost;
  const responses = record.responses ?? [];
  const texts = [record, ...responses].flatMap((answer) => [answer.json, answer.body, answer.base64Body]);
  const rest = JSON.stringify({
    ...record,
    json: undefined,
    body: undefined,
    base64Body: undefined,
    responses: responses.map((response) => ({ ...response, json: undefined, body: undefined, base64Body: undefined })),
  });
  const factor = record.template ? TEMPLATE_FACTOR : TEXT_FACTOR;
  cost = RECORD_BYTES + jsonCost(rest);
  // Callbacks' strings are templates whether or not the record's are (callback-templates.ts).
  const callbacks = [record.callbacks, ...responses.map((response) => response.callbacks)];
  let expressions = expressionCount(record.template ? rest : JSON.stringify(callbacks));
  for (const text of texts) {
    if (text === undefined) continue;
    // The string (one or two bytes a character) and the UTF-8 Buffer it is served from: twice the
    // bytes for ASCII, up to three times for a two-byte string of mostly ASCII. Base64 text is ASCII
    // and its Buffer three quarters of it, so it is charged a little over.
    cost += (factor / 2) * (textCost(text) + Buffer.byteLength(text, 'utf8'));
    if (record.template) expressions += expressionCount(text);
  }
  // A GraphQL endpoint's mocks are templates, and its schema is built once it is first asked.
  if (record.kind === 'graphql') {
    expressions += expressionCount(JSON.stringify(record.mocks ?? {}));
    cost += sdlTokens(record.schema ?? '') * GRAPHQL_TOKEN_BYTES;
  }
  cost = Math.ceil(cost + expressions * TEMPLATE_EXPRESSION_BYTES);
  costs.set(record, cost);
  return cost;
}

// Strings (descriptions too) and comments, then GraphQL's tokens: names, numbers and punctuators.
const SDL_TEXT = /"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*/g;
const SDL_TOKEN = /[_A-Za-z0-9][_0-9A-Za-z.]*|\.\.\.|[!$&():=@[\]{}|]/g;

/** About how many tokens a schema has, without loading graphql (records load at start): each string or comment counts as one. */
function sdlTokens(sdl: string): number {
  let strings = 0;
  const rest = sdl.replace(SDL_TEXT, () => {
    strings++;
    return ' ';
  });
  return strings + (rest.match(SDL_TOKEN)?.length ?? 0);
}

import { isJsonObject } from '../../http/json-body.js';
import type { EndpointKind, MockInput, SocketMessage, SocketReply, SocketScript, StreamEvent } from './record.js';
import { bad, checkBoolean, objectOf, serialize } from './validate-fields.js';
import { compileJson, compileText, newCompileBudget, TemplateError, type CompileBudget, type Render } from '../templates/template.js';

/**
 * The scripts of WebSocket and event-stream endpoints (docs/mock-api.md): their fields, checked at
 * save, and their `data` compiled as templates, which the servers in ../streams/ run.
 */

export const KINDS: readonly EndpointKind[] = ['graphql', 'websocket', 'sse'];
export const SOCKET_FIELDS = ['onConnect', 'responses', 'echo', 'every', 'close'] as const;
export const EVENT_FIELDS = ['events', 'loop'] as const;
/** What a GET answer adds, accepted so that answer can be PUT back (as validate.ts does). */
const ECHOED = ['success', 'hits', 'lastCall', 'created', 'updated', 'url', 'source'];

/** Most scripted items in one list (messages, replies, events): each is a timer or a match per message. */
export const MAX_SCRIPT_ITEMS = 100;
/**
 * The shortest `every.ms`, and the shortest round of a looping event list: each connection runs its
 * own timers, so a 1 ms loop on a thousand connections would be a million sends a second.
 */
export const MIN_REPEAT_MS = 100;
/** Longest match text, event name or id. */
const MAX_TEXT = 10_000;

/** A `kind` given in a record: one of KINDS. */
export function checkKind(value: unknown): EndpointKind {
  if (!KINDS.includes(value as EndpointKind)) throw bad('kind', `kind must be one of ${KINDS.join(', ')} (none: REST)`);
  return value as EndpointKind;
}

/** Refuses a script field on an endpoint of another kind: stored silently, it would look like it works. */
export function refuseScriptFields(fields: Record<string, unknown>, kind: EndpointKind | undefined): void {
  const own: readonly string[] = kind === 'websocket' ? SOCKET_FIELDS : kind === 'sse' ? EVENT_FIELDS : [];
  for (const field of [...SOCKET_FIELDS, ...EVENT_FIELDS]) {
    // REST's responses are its own field.
    if (field === 'responses' && kind !== 'sse') continue;
    if (fields[field] !== undefined && !own.includes(field)) {
      const needs = (SOCKET_FIELDS as readonly string[]).includes(field) ? 'websocket' : 'sse';
      throw bad(field, `${field} is a field of endpoints of kind ${needs}`);
    }
  }
}

/** A record of kind `websocket` or `sse` from its checked top-level fields (`name` and `path` already checked). */
export function parseStreamInput(
  fields: Record<string, unknown>,
  base: Pick<MockInput, 'name' | 'path'>,
  kind: 'websocket' | 'sse',
  maxDelay: number,
): MockInput {
  const own: readonly string[] = kind === 'websocket' ? SOCKET_FIELDS : EVENT_FIELDS;
  for (const key of Object.keys(fields)) {
    if (!['name', 'path', 'kind', ...own, ...ECHOED].includes(key)) {
      throw bad(key, `${key} does not apply to an endpoint of kind ${kind}; it takes name, path, kind, ${own.join(', ')}`);
    }
  }
  const input: MockInput = { ...base, kind, statusCode: 200, delay: 0 };
  if (kind === 'websocket') input.socket = checkSocketScript(fields, maxDelay);
  else input.stream = checkEventScript(fields, maxDelay);
  checkStreamTemplates(input);
  return input;
}

function checkSocketScript(fields: Record<string, unknown>, maxDelay: number): SocketScript {
  const script: SocketScript = {};
  if (fields.onConnect !== undefined) {
    script.onConnect = listOf(fields.onConnect, 'onConnect', (item, at) => {
      const message = objectOf(item, at, ['data', 'delay'], 'an object with data and delay');
      const out: SocketMessage = { data: checkData(message, at) };
      if (message.delay !== undefined) out.delay = checkMs(message.delay, `${at}.delay`, 0, maxDelay);
      return out;
    });
  }
  if (fields.responses !== undefined) script.responses = listOf(fields.responses, 'responses', (item, at) => checkReply(item, at, maxDelay));
  if (fields.echo !== undefined) script.echo = checkBoolean(fields.echo, 'echo');
  if (fields.every !== undefined) {
    const every = objectOf(fields.every, 'every', ['ms', 'data'], 'an object with ms and data');
    script.every = { ms: checkMs(every.ms, 'every.ms', MIN_REPEAT_MS, maxDelay), data: checkData(every, 'every') };
  }
  if (fields.close !== undefined) {
    const close = objectOf(fields.close, 'close', ['code', 'after'], 'an object with code and after');
    script.close = { code: checkCode(close.code ?? 1000, 'close.code'), after: checkMs(close.after ?? 0, 'close.after', 0, maxDelay) };
  }
  return script;
}

function checkReply(value: unknown, at: string, maxDelay: number): SocketReply {
  const fields = objectOf(value, at, ['when', 'data', 'delay', 'close'], 'an object (a reply)');
  const reply: SocketReply = {};
  if (fields.when !== undefined) {
    const when = objectOf(fields.when, `${at}.when`, ['text', 'contains', 'body'], 'an object of text, contains or body');
    reply.when = {};
    for (const key of ['text', 'contains'] as const) {
      const text = when[key];
      if (text === undefined) continue;
      if (typeof text !== 'string' || text.length > MAX_TEXT) throw bad(`${at}.when.${key}`, `${at}.when.${key} must be a string of at most ${MAX_TEXT} characters`);
      reply.when[key] = text;
    }
    if (when.body !== undefined) {
      if (!isJsonObject(when.body)) throw bad(`${at}.when.body`, `${at}.when.body must be an object the message's JSON must contain`);
      serialize(when.body, `${at}.when.body`);
      reply.when.body = when.body;
    }
  }
  if (Object.hasOwn(fields, 'data')) reply.data = checkData(fields, at);
  if (fields.delay !== undefined) reply.delay = checkMs(fields.delay, `${at}.delay`, 0, maxDelay);
  if (fields.close !== undefined) reply.close = checkCode(fields.close, `${at}.close`);
  if (reply.data === undefined && reply.close === undefined) throw bad(`${at}.data`, `${at} needs data, close or both`);
  return reply;
}

function checkEventScript(fields: Record<string, unknown>, maxDelay: number): { events: StreamEvent[]; loop?: boolean } {
  if (fields.events === undefined) throw bad('events', 'events is required: a list of { event, data, id, delay }');
  const events = listOf(fields.events, 'events', (item, at) => {
    const event = objectOf(item, at, ['event', 'data', 'id', 'delay'], 'an object with event, data, id and delay');
    const out: StreamEvent = { data: checkData(event, at) };
    for (const key of ['event', 'id'] as const) {
      const text = event[key];
      if (text === undefined) continue;
      // A line break would end the field and start another the client would read.
      if (typeof text !== 'string' || text.length > MAX_TEXT || /[\r\n\0]/.test(text)) {
        throw bad(`${at}.${key}`, `${at}.${key} must be a string of at most ${MAX_TEXT} characters, on one line`);
      }
      out[key] = text;
    }
    if (event.delay !== undefined) out.delay = checkMs(event.delay, `${at}.delay`, 0, maxDelay);
    return out;
  });
  if (events.length === 0) throw bad('events', 'events must hold at least one event');
  if (fields.loop === undefined || !checkBoolean(fields.loop, 'loop')) return { events };
  const round = events.reduce((sum, event) => sum + (event.delay ?? 0), 0);
  if (round < MIN_REPEAT_MS) throw bad('loop', `a looping list of events must take at least ${MIN_REPEAT_MS} ms a round (its delays add up to ${round})`);
  return { events, loop: true };
}

function listOf<T>(value: unknown, field: string, each: (item: unknown, at: string) => T): T[] {
  if (!Array.isArray(value)) throw bad(field, `${field} must be a list`);
  if (value.length > MAX_SCRIPT_ITEMS) throw bad(field, `${field} must hold at most ${MAX_SCRIPT_ITEMS} items`);
  return value.map((item, i) => each(item, `${field}[${i}]`));
}

function checkData(fields: Record<string, unknown>, at: string): unknown {
  const field = at ? `${at}.data` : 'data';
  if (!Object.hasOwn(fields, 'data')) throw bad(field, `${field} is required`);
  serialize(fields.data, field);
  return fields.data;
}

function checkMs(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw bad(field, `${field} must be a whole number of milliseconds from ${min} to ${max}`);
  }
  return value;
}

/** The codes an endpoint may close with: normal closure, or the range for applications (RFC 6455 7.4.2). */
function checkCode(value: unknown, field: string): number {
  if (value === 1000 || (typeof value === 'number' && Number.isInteger(value) && value >= 3000 && value <= 4999)) return value;
  throw bad(field, `${field} must be a close code: 1000, or from 3000 to 4999`);
}

/** Renders a script's `data` to what is sent: a string as text, anything else as JSON text. */
export function compileData(data: unknown, field: string, budget: CompileBudget = newCompileBudget()): Render {
  return typeof data === 'string' ? compileText(data, field, budget) : compileJson(JSON.stringify(data), field, budget);
}

/** Compiling at save makes a template's syntax error a 400 naming its field, not a failure per message. */
function checkStreamTemplates(input: MockInput): void {
  const budget = newCompileBudget();
  const datas: [unknown, string][] = [];
  const { socket, stream } = input;
  socket?.onConnect?.forEach((message, i) => datas.push([message.data, `onConnect[${i}].data`]));
  socket?.responses?.forEach((reply, i) => reply.data !== undefined && datas.push([reply.data, `responses[${i}].data`]));
  if (socket?.every) datas.push([socket.every.data, 'every.data']);
  stream?.events.forEach((event, i) => datas.push([event.data, `events[${i}].data`]));
  try {
    for (const [data, field] of datas) compileData(data, field, budget);
  } catch (err) {
    if (err instanceof TemplateError) throw bad(err.field, err.message);
    throw err;
  }
}

import type { Expects } from './expects/expects.js';
import type { Content } from './media/media.js';

/**
 * The endpoint record as validated and stored (docs/mock-api.md). `data` is kept serialized as
 * `json`, exactly as it will be served; every optional field is absent rather than defaulted, so a
 * record written by an older version (name, json, statusCode, delay, headers) is a valid record.
 */

export type Fault = 'reset' | 'empty' | 'malformed' | 'hang';
export const FAULTS: readonly Fault[] = ['reset', 'empty', 'malformed', 'hang'];

export type Pick = 'first-match' | 'sequence' | 'random';
export const PICKS: readonly Pick[] = ['first-match', 'sequence', 'random'];

/** Milliseconds, fixed or drawn uniformly from [min, max] per request. */
export type Delay = number | { min: number; max: number };

/** All given parts must match the request; a part the request lacks does not match. */
export type When = {
  /** Upper-case method names; any of them. */
  method?: string[];
  params?: Record<string, string>;
  /** Each key equal; a list means any of. */
  query?: Record<string, string | string[]>;
  /** Lower-cased names, exact values. */
  headers?: Record<string, string>;
  /** The request's JSON body contains this object (every key given deep-equal). */
  body?: Record<string, unknown>;
  /** The endpoint's scenario is in this state (./validate-scenario.ts). */
  state?: string;
  /** GraphQL endpoints only: the operation's name. */
  operationName?: string;
  /** GraphQL endpoints only: each variable given deep-equal. */
  variables?: Record<string, unknown>;
};

/**
 * A request the server sends after answering (docs/mock-api.md, "Callbacks"): every string a template
 * over the request that was answered, whether or not the endpoint has `template`.
 */
export type Callback = {
  /** Upper-case; POST when not given. */
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** Text as given, or any JSON value, sent as JSON. */
  body?: unknown;
  /** Milliseconds after the answer was sent. */
  delay?: number;
};

/** An alternative answer; what it leaves out comes from the endpoint's own fields. */
export type ResponseRecord = {
  when?: When;
  statusCode?: number;
  /** `data`, serialized. At most one of `json`, `body` and `base64Body`. */
  json?: string;
  body?: string;
  /** Bytes as base64 (an image, a font), sent decoded, never a template. */
  base64Body?: string;
  headers?: Record<string, string>;
  delay?: Delay;
  fault?: Fault;
  faultRate?: number;
  /** The state the endpoint's scenario moves to when this response answers. */
  setState?: string;
  /** Sent after this response answers, instead of the endpoint's (`[]`: none). */
  callbacks?: Callback[];
  /** Its other media types and named examples (`Accept`, `Prefer: example=`, `Prefer: dynamic=true`). */
  content?: Content;
  /** Answers `Prefer: code=N` for any N no other answer has (an OpenAPI `default`). */
  anyStatus?: boolean;
  /** GraphQL endpoints only: the answer's `errors` list, as given. */
  errors?: Record<string, unknown>[];
};

/** What an endpoint speaks; REST when absent. */
export type EndpointKind = 'graphql' | 'websocket' | 'sse';

/** A message a WebSocket endpoint sends: a string `data` as text, anything else as JSON; its strings are templates. */
export type SocketMessage = { data: unknown; delay?: number };

/** A reply to an incoming message that matches `when` (every part given; none: every message). */
export type SocketReply = {
  when?: { text?: string; contains?: string; body?: Record<string, unknown> };
  data?: unknown;
  delay?: number;
  /** Closes the connection with this code after replying. */
  close?: number;
};

/** The script of an endpoint of kind `websocket` (docs/mock-api.md, "WebSocket endpoints"). */
export type SocketScript = {
  onConnect?: SocketMessage[];
  responses?: SocketReply[];
  echo?: boolean;
  every?: { ms: number; data: unknown };
  close?: { code: number; after: number };
};

/** One event of an endpoint of kind `sse`; `delay` is counted from the event before. */
export type StreamEvent = { event?: string; data: unknown; id?: string; delay?: number };

/** The script of an endpoint of kind `sse` (docs/mock-api.md, "Event-stream endpoints"). */
export type EventScript = { events: StreamEvent[]; loop?: boolean };

/** What a caller may set on an endpoint. */
export type MockInput = {
  name: string;
  /** What the endpoint speaks; REST when absent. A GraphQL endpoint answers from `schema` and `mocks` (./validate-graphql.ts); WebSocket and event-stream ones follow their script (./stream-script.ts). */
  kind?: EndpointKind;
  /** GraphQL endpoints only: the schema, in SDL. */
  schema?: string;
  /** GraphQL endpoints only: values by `Type` or `Type.field`, their strings templates. */
  mocks?: Record<string, unknown>;
  /** With kind `websocket`: its script, given as top-level fields of the record. */
  socket?: SocketScript;
  /** With kind `sse`: its events, given as top-level fields of the record. */
  stream?: EventScript;
  /** The route under /endpoint/, without leading or trailing slash; the name when absent. */
  path?: string;
  /** Upper-case, no repeats; every method when absent. */
  methods?: string[];
  statusCode: number;
  /** `data`, serialized; exactly one of `json`, `body` and `base64Body`. */
  json?: string;
  /** A raw text body (XML, CSV, text), sent as is. */
  body?: string;
  /** Bytes as base64 (an image, a font, what a recording or HAR held), sent decoded, never a template. */
  base64Body?: string;
  delay: Delay;
  headers?: Record<string, string>;
  /** Strings in data, body and headers (of the endpoint and its responses) are Handlebars templates. */
  template?: boolean;
  responses?: ResponseRecord[];
  /** `first-match` when absent. */
  pick?: Pick;
  fault?: Fault;
  /** 0 to 1; 1 when absent. */
  faultRate?: number;
  /** `data` is a json-server collection (a list of items, with ids where routes by id need them) or single resource, changed by requests. */
  collection?: boolean;
  /** The stateful scenario the endpoint takes part in (docs/mock-api.md, "Scenarios"). */
  scenario?: string;
  /** The state its scenario moves to when the endpoint's own answer answers; only with `scenario`. */
  setState?: string;
  /** Sent after each answer whose response gives none of its own. */
  callbacks?: Callback[];
  /** What a request must carry (an OpenAPI operation's parameters, body and security); checked when validating. */
  expects?: Expects;
  /** Check requests against `expects`: true or false whatever the server's --validate says. */
  validate?: boolean;
  /** The endpoint's own answer's other media types and named examples. */
  content?: Content;
};

/** The record an engine keeps for an endpoint (../engines/engine.ts). */
export type StoredMock = MockInput & {
  created: string;
  updated: string;
};

/**
 * Which answer a request got, as the request log records it: `response` is the index in
 * `responses` (null for the endpoint's own answer), `status` what was sent (null for a fault).
 */
export type Answered = {
  response: number | null;
  status: number | null;
  fault?: Fault;
  /** A GraphQL endpoint's request: the operation's name, when it has one (the page and `mock log` show it). */
  operationName?: string;
  /** On a WebSocket or event-stream endpoint: which connection (numbered by the server; 0: a broadcast to all) and what happened on it. */
  socket?: SocketEvent;
};

/** `open` and `close` (with its code) of a connection, a message `in` from the client or `out` to it. */
export type SocketEvent = { connection: number; event: 'open' | 'in' | 'out' | 'close'; code?: number };

/**
 * A callback the answer sent (docs/mock-api.md, "Callbacks"), as rendered. `status` and `ms` (from
 * sending to the answer's head) once answered; `error` when it was not sent, failed or timed out;
 * neither while it waits or is on its way.
 */
export type CallbackResult = {
  method: string;
  url: string;
  status?: number;
  ms?: number;
  error?: string;
};

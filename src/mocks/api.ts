import { Router } from '@koa/router';
import type { Context } from 'koa';
import { HttpError } from '../http/errors.js';
import { readJsonBody } from '../http/json-body.js';
import type { ResponseRecord, StoredMock } from './record/record.js';
import type { MockStore } from './store/store.js';
import { patternOf, type Endpoint } from './store/endpoint.js';
import { checkName, parseMockInput } from './record/validate.js';
import type { RequestFeed } from './log/feed.js';
import { streamRequestEvents, streamServerEvents } from './api-events.js';
import { addUnmatchedRoutes } from './api-unmatched.js';
import { addImportRoute } from './api-import.js';
import { addVerifyRoutes } from './api-verify.js';
import { addScenarioRoutes } from './api-scenarios.js';
import { addStreamRoutes } from './api-streams.js';
import type { StreamServer } from './streams/streams.js';
import type { Logger } from '../server/logger.js';
import type { SourceProblem } from './sources/loader.js';
import { sendJson } from '../http/json-answer.js';
import { MOCK_DEFAULTS } from './config/defaults.js';
import { fromSourceError } from './store/refusals.js';

export type ApiOptions = {
  store: MockStore;
  maxDelay: number;
  maxBody: number;
  /** The CPU gate's budget of one request, in ms (--max-request-cpu): a verification runs under it. */
  maxRequestCpu: number;
  trustProxy: boolean;
  feed: RequestFeed;
  /** WebSocket and event-stream endpoints' connections: broadcasts, and the page's list. */
  streams: StreamServer;
  eventKeepAliveMs: number;
  maxEventStreams: number;
  logger: Logger;
  /** Watched files (--dir): GET /api/sources lists their endpoints and the problems of their last change. */
  sources?: { problems(): SourceProblem[] };
};

/**
 * The JSON API under /api (docs/mock-api.md). The original service's routes keep their answers
 * (201 on add, 409 on a repeated name); everything newer lives on its own routes.
 */
export function apiRouter(options: ApiOptions): Router {
  const { store } = options;
  const validate = { maxDelay: options.maxDelay };
  // Any Content-Type is read as JSON, as the original service did (its README used curl -d, a form type).
  const body = { limit: options.maxBody };
  const router = new Router({ prefix: '/api' });

  // The original contract: create only.
  router.put('/endpoint/add', async (ctx) => {
    const input = parseMockInput(await readJsonBody(ctx, body), validate);
    const { created, endpoint } = await store.add(input);
    if (!created) {
      // Replacing it would not help either: say where it comes from (a file, an OpenAPI document).
      if (endpoint.source) throw fromSourceError(input.name, endpoint.source);
      throw new HttpError(409, `an endpoint named '${input.name}' already exists`, 'name');
    }
    reply(ctx, 201, recordJson(store.get(input.name)!));
  });

  router.get('/endpoints', (ctx) => {
    const base = endpointBase(ctx, options.trustProxy);
    sendJson(ctx, { success: true, endpoints: store.list().map((endpoint) => listItem(endpoint, base)) });
  });

  router.get('/sources', (ctx) => {
    const names = new Map<string, string[]>();
    for (const { source, record } of store.list()) {
      if (source) names.set(source, [...(names.get(source) ?? []), record.name]);
    }
    const sources = [...names].map(([source, endpoints]) => ({ source, endpoints }));
    sendJson(ctx, { success: true, sources, errors: options.sources?.problems() ?? [] });
  });

  addUnmatchedRoutes(router, store);

  addVerifyRoutes(router, store, options.maxBody, options.maxRequestCpu);
  addScenarioRoutes(router, store, body);
  addStreamRoutes(router, store, options.streams, options);

  // One call back to a clean state, for a test suite's beforeEach (docs/testing-with-mocks.md).
  router.post('/reset', async (ctx) => sendJson(ctx, { success: true, ...(await store.reset()) }));

  // The page's server-wide stream: hit counts, endpoint changes, unmatched requests (Server-Sent Events).
  router.get('/events', (ctx) => {
    const { feed, eventKeepAliveMs: keepAliveMs, maxEventStreams: maxStreams } = options;
    streamServerEvents(ctx, { store, feed, keepAliveMs, maxStreams });
  });

  const maxImportBody = Math.max(options.maxBody, MOCK_DEFAULTS.maxImportBody);
  addImportRoute(router, { store, validate, maxBody: maxImportBody, logger: options.logger });

  router.get('/endpoint/:name', (ctx) => {
    const endpoint = found(store, ctx.params.name!);
    const { hits } = endpoint.stats;
    const { created, updated } = endpoint.record;
    const url = endpointBase(ctx, options.trustProxy) + patternOf(endpoint.record);
    const { source } = endpoint;
    reply(ctx, 200, recordJson(endpoint, { hits, lastCall: lastCall(endpoint), created, updated, url, source }));
  });

  // Create or replace, so a setup script can run twice.
  router.put('/endpoint/:name', async (ctx) => {
    const name = checkName(ctx.params.name);
    const input = parseMockInput(await readJsonBody(ctx, body), validate, name);
    const { created, endpoint } = await store.put(input);
    reply(ctx, created ? 201 : 200, recordJson(endpoint));
  });

  router.delete('/endpoint/:name', async (ctx) => {
    const name = ctx.params.name!;
    if (!(await store.delete(name))) throw noEndpoint(name);
    sendJson(ctx, { success: true, name });
  });

  router.get('/endpoint/:name/requests', (ctx) => {
    const endpoint = found(store, ctx.params.name!);
    sendJson(ctx, { success: true, name: endpoint.record.name, requests: endpoint.stats.requests.newestFirst() });
  });

  // Answers once the data file has forgotten the entries too; hits and lastCall stay.
  router.delete('/endpoint/:name/requests', async (ctx) => {
    const name = ctx.params.name!;
    if (!(await store.clearLog(name))) throw noEndpoint(name);
    sendJson(ctx, { success: true, name });
  });

  // A collection's live data back to the record's data (json-server's db.json as loaded).
  router.post('/endpoint/:name/reset', async (ctx) => {
    const endpoint = found(store, ctx.params.name!);
    const { name, collection } = endpoint.record;
    if (!collection) throw new HttpError(400, `endpoint '${name}' is not a collection`, 'name');
    await store.collections.reset(name);
    sendJson(ctx, { success: true, name });
  });

  // The page's live request log (Server-Sent Events).
  router.get('/endpoint/:name/events', (ctx) => {
    const { feed, eventKeepAliveMs: keepAliveMs, maxEventStreams: maxStreams } = options;
    streamRequestEvents(ctx, ctx.params.name!, { store, feed, keepAliveMs, maxStreams });
  });

  return router;
}

export function noEndpoint(name: string): HttpError {
  return new HttpError(404, `no endpoint named '${name}'`);
}

/** When the endpoint was last called (kept in the data file; clearing the log keeps it), or null. */
function lastCall(endpoint: Endpoint): string | null {
  return endpoint.stats.requests.lastCall;
}

function found(store: MockStore, name: string): Endpoint {
  const endpoint = store.get(name);
  if (!endpoint) throw noEndpoint(name);
  return endpoint;
}

function listItem(endpoint: Endpoint, base: string) {
  const { record, stats } = endpoint;
  const { name, statusCode, delay, created, updated } = record;
  const path = patternOf(record);
  return {
    name,
    path,
    ...(record.kind && { kind: record.kind }),
    methods: record.methods ?? null,
    statusCode,
    delay,
    template: record.template === true,
    responses: record.responses?.length ?? 0,
    hits: stats.hits,
    lastCall: lastCall(endpoint),
    created,
    updated,
    url: base + path,
    ...(record.kind && { kind: record.kind }),
    ...(endpoint.source && { source: endpoint.source }),
  };
}

/**
 * The record answer of docs/mock-api.md, built around the stored JSON texts so each `data` is
 * echoed byte for byte as it will be served, without parsing it again. Optional fields only when set.
 */
function recordJson(endpoint: Endpoint, extra?: Record<string, unknown>): string {
  const { record } = endpoint;
  const { name, path, methods, statusCode, delay, headers, template, responses, pick, fault, faultRate, scenario, setState, callbacks } = record;
  let text = `{"success":true,"name":${JSON.stringify(name)}`;
  // A WebSocket or event-stream endpoint has its script where a REST one has its answer.
  const script = record.socket ?? record.stream;
  if (script) return `${text}${fields({ path, kind: record.kind, ...script, ...extra })}}`;
  text += fields({ kind: record.kind, schema: record.schema, mocks: record.mocks, path, methods, statusCode }) + content(record) + fields({ delay, headers, template });
  text += fields({ collection: record.collection });
  if (responses) text += `,"responses":[${responses.map(responseJson).join(',')}]`;
  text += fields({ pick, fault, faultRate, scenario, setState, callbacks, expects: record.expects, validate: record.validate, content: record.content, ...extra });
  return `${text}}`;
}

function responseJson(response: ResponseRecord): string {
  const { when, statusCode, errors, headers, delay, fault, faultRate, setState, callbacks } = response;
  const text = fields({ when, statusCode }) + content(response) + fields({ errors, headers, delay, fault, faultRate, setState, callbacks, content: response.content, anyStatus: response.anyStatus });
  return `{${text.slice(1)}}`;
}

/** `,"data":…` (the stored text as is), `,"body":…` or `,"base64Body":…`, whichever the answer has. */
function content(answer: StoredMock | ResponseRecord): string {
  if (answer.json !== undefined) return `,"data":${answer.json}`;
  if (answer.body !== undefined) return `,"body":${JSON.stringify(answer.body)}`;
  if (answer.base64Body !== undefined) return `,"base64Body":"${answer.base64Body}"`;
  return '';
}

/** `,"key":value` for each key whose value is set, in order. */
function fields(values: Record<string, unknown>): string {
  let text = '';
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) text += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
  }
  return text;
}

function reply(ctx: Context, status: number, json: string): void {
  ctx.status = status;
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = json;
}

/**
 * Where endpoints are served, as the client sees it: with trustProxy Koa takes the protocol and
 * host from X-Forwarded-Proto/-Host, and X-Forwarded-Prefix says under which path a proxy mounts us.
 */
function endpointBase(ctx: Context, trustProxy: boolean): string {
  let prefix = trustProxy ? (ctx.get('X-Forwarded-Prefix').split(',')[0] ?? '').trim().replace(/\/+$/, '') : '';
  if (!prefix.startsWith('/')) prefix = '';
  // Koa 3's ctx.origin is the Origin request header, not ours.
  return `${ctx.protocol}://${ctx.host}${prefix}/endpoint/`;
}

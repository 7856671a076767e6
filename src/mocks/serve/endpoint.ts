import type { IncomingMessage, ServerResponse } from 'node:http';
import { isPreflight } from '../../http/cors.js';
import { hasBody } from '../../http/read-body.js';
import type { Logger } from '../../server/logger.js';
import { contentOf, mediaAnswer } from './media-choice.js';
import { answerPreflight, jsonAnswer, notAllowed, notFound, plainAnswer, send } from './send.js';
import { breakConnection, type Hangs } from './faults.js';
import type { CallbackResult, Fault } from '../record/record.js';
import { draw, later } from './delay.js';
import type { RequestFeed } from '../log/feed.js';
import type { ServeCollection } from './collection.js';
import { requestInput, type ScenarioInput } from './request-input.js';
import { clientIp, isoNow, readLoggedBody, type LoggedRequest } from '../log/request-log.js';
import { compileResponder, isPlain, type Answer, type Responder } from './responder.js';
import type { MockStore } from '../store/store.js';
import type { Endpoint } from '../store/endpoint.js';
import { pickStatus, wantedStatus } from './status-choice.js';
import { TemplateError } from '../templates/template.js';
import { BIN_HEADER_KEY, parseBinClaim } from '../../shared/bin-claim.js';
import { plannedResults, type CallbackSender } from '../callbacks/sender.js';
import { answerThenCall, callbacksChanged } from './answer-callbacks.js';
import { answerGraphql } from './graphql.js';

/** How the endpoint server hands requests to the proxy (proxy/): the ones no endpoint answers, and recordings of another query. */
export type ProxyHook = {
  passes(endpoint: Endpoint, req: IncomingMessage): boolean;
  forward(req: IncomingMessage, res: ServerResponse, path: string): void;
};

export type ServeEndpointOptions = {
  store: MockStore;
  cors: boolean;
  trustProxy: boolean;
  logger: Logger;
  /** Told of every request as it is logged (the page's live log). */
  feed: RequestFeed;
  /** Requests a `hang` fault may hold at once; past it, a hang closes the connection. */
  maxHangs: number;
  /** With --proxy: what no endpoint answers (404 or 405 alike) goes upstream. */
  proxy?: ProxyHook;
  /** Answers endpoints with `collection: true` (json-server's routes). */
  collection?: ServeCollection;
  /** CPU time one request's templates may take, in milliseconds (--max-request-cpu). */
  maxRequestCpu?: number;
  /** Sends answers' callbacks; without it, none is sent. */
  callbacks?: CallbackSender;
  /** Checks requests to endpoints that say what they expect. */
  check?: RequestCheck;
  /** --validate: check each endpoint with `expects` unless its record says `validate: false`. */
  validate?: boolean;
  /** Answers WebSocket and event-stream endpoints (../streams/), saying whether it did. */
  streams?: (req: IncomingMessage, res: ServerResponse, endpoint: Endpoint, params: Record<string, string>) => boolean;
};

/** A request refused by its check: the status, the JSON body, more of the head. */
export type CheckRefusal = { status: number; body: unknown; head?: string[] };

/**
 * Request validation (../request-check/): for an endpoint whose record has `expects`, the refusal a
 * request earns, or undefined to answer it; a promise while the validator loads (ajv is not part of
 * a server's start). `truncated`: the body was longer than a log keeps.
 */
export type RequestCheck = (
  req: IncomingMessage,
  endpoint: Endpoint,
  params: Record<string, string>,
  body: string,
  truncated: boolean,
) => CheckRefusal | undefined | Promise<CheckRefusal | undefined>;

/** Answers one request under /endpoint/ on the raw node objects; `path` is what follows, undecoded, no query. */
export type ServeEndpoint = (req: IncomingMessage, res: ServerResponse, path: string) => void;

/**
 * The one implementation of `/endpoint/*`, for every method: both the pre-Koa hot path and the
 * Koa route call it, so CORS, hit counts and the request log cannot differ between them. Per
 * request it finds the route, counts and logs the request, waits out the delay on a timer and
 * writes what was prepared once per endpoint version: a fixed head and body for a plain endpoint,
 * a responder (its variants, templates compiled) for the others.
 */
export function createEndpointServer(options: ServeEndpointOptions): ServeEndpoint {
  const { store, cors, trustProxy, logger, feed, proxy, collection, callbacks } = options;
  const hangs: Hangs = { open: 0, max: options.maxHangs, account: store.memory.connections };
  // Keyed by the Endpoint object, which a write replaces, so a stale answer or responder is never used.
  // Made once per version: whether it is plain, and what it answers with.
  const prepared = new WeakMap<Endpoint, Answer | Responder>();
  const prepare = (endpoint: Endpoint): Answer | Responder => {
    let ready = prepared.get(endpoint);
    if (!ready) {
      ready = isPlain(endpoint.record)
        ? plainAnswer(endpoint, cors)
        : compileResponder(endpoint.record, cors, options.maxRequestCpu);
      prepared.set(endpoint, ready);
    }
    return ready;
  };

  /** Logs one request (hits were counted as its body came in), and tells the page and the other instances. */
  const log = (
    req: IncomingMessage,
    endpoint: Endpoint,
    time: string,
    body: string,
    bodyTruncated: boolean,
    response: number | null,
    status: number | null,
    fault?: Fault,
    calls?: CallbackResult[],
    operationName?: string,
  ): LoggedRequest => {
    // The entry is built whole, in one shape: this runs for every request.
    const entry: LoggedRequest = {
      time,
      method: req.method ?? 'GET',
      url: req.url ?? '',
      ip: clientIp(req, trustProxy),
      headers: req.headers,
      body,
      bodyTruncated,
      response,
      status,
    };
    if (fault) entry.fault = fault;
    nameBin(req, entry);
    if (calls) entry.callbacks = calls;
    if (operationName !== undefined) entry.operationName = operationName;
    endpoint.stats.requests.add(entry);
    feed.publish(endpoint.record.name, entry);
    store.share(endpoint.record.name, entry);
    return entry;
  };

  /** Logs a request no endpoint answers in the server's unmatched log, then refuses it. */
  const logUnmatched = (
    req: IncomingMessage,
    time: string,
    body: string,
    bodyTruncated: boolean,
    status: number,
    refuse: () => void,
  ) => {
    const { method = 'GET', url = '', headers } = req;
    const ip = clientIp(req, trustProxy);
    const entry: LoggedRequest = { time, method, url, ip, headers, body, bodyTruncated, response: null, status };
    nameBin(req, entry);
    store.unmatched.add(entry);
    feed.publishUnmatched();
    refuse();
  };

  // Functions of the request rather than closures made for each: this is the hot path.
  const respond = (
    req: IncomingMessage,
    res: ServerResponse,
    endpoint: Endpoint,
    params: Record<string, string>,
    time: string,
    body: string,
    bodyTruncated: boolean,
  ) => {
    endpoint.stats.hits++;
    if (endpoint.record.kind === 'graphql') {
      const { answer, response, delay, operationName } = answerGraphql(req, endpoint, body, bodyTruncated, options);
      log(req, endpoint, time, body, bodyTruncated, response, answer.status, undefined, undefined, operationName);
      return later(res, draw(delay), () => send(req, res, answer));
    }
    const { expects, validate = options.validate } = endpoint.record;
    const refused = expects && validate && options.check?.(req, endpoint, params, body, bodyTruncated);
    if (!refused) return answer(req, res, endpoint, params, time, body, bodyTruncated);
    const refuse = (refusal: CheckRefusal | undefined) => {
      if (!refusal) return answer(req, res, endpoint, params, time, body, bodyTruncated);
      const sent = jsonAnswer(refusal.status, refusal.body, cors);
      if (refusal.head) sent.head.push(...refusal.head);
      log(req, endpoint, time, body, bodyTruncated, null, sent.status);
      send(req, res, sent);
    };
    if (!(refused instanceof Promise)) return refuse(refused);
    refused.then(refuse).catch((err: unknown) => failed(req, res, err));
  };

  const answer = (
    req: IncomingMessage,
    res: ServerResponse,
    endpoint: Endpoint,
    params: Record<string, string>,
    time: string,
    body: string,
    bodyTruncated: boolean,
  ) => {
    const ready = prepare(endpoint);
    // `?__code=` or `Prefer: code=`: that status's answer, or a refusal naming those there are.
    const wanted = wantedStatus(req);
    const picked = wanted && pickStatus(wanted, ready, endpoint.record);
    if (typeof picked === 'object' && 'refused' in picked) {
      const { refused, message, field } = picked;
      const refusal = jsonAnswer(refused, { success: false, message, field }, cors);
      log(req, endpoint, time, body, bodyTruncated, null, refusal.status);
      return send(req, res, refusal);
    }
    if ('head' in ready) {
      log(req, endpoint, time, body, bodyTruncated, null, ready.status);
      // No timer, and no closure for one, without a delay.
      const delay = draw(endpoint.record.delay);
      return delay > 0 ? later(res, delay, () => send(req, res, ready)) : send(req, res, ready);
    }
    const responder = ready;
    const input: ScenarioInput | undefined = responder.needsInput ? requestInput(req, params, body) : undefined;
    // Read, chosen and moved in one synchronous step: concurrent requests see one sequence of states.
    const { scenario } = endpoint.record;
    const state = scenario === undefined ? undefined : store.scenarios.state(scenario);
    if (input && state !== undefined) input.scenario = { name: scenario!, state };
    const variant = typeof picked === 'object' ? picked : responder.choose(input, endpoint.stats, Math.random, state);
    if (state !== undefined && variant.setState !== undefined) store.scenarios.move(scenario!, variant.setState);
    const { fault } = variant;
    if (fault && Math.random() < variant.faultRate) {
      log(req, endpoint, time, body, bodyTruncated, variant.index, null, fault);
      return later(res, draw(variant.delay), () => breakConnection(fault, req, hangs));
    }
    // Rendered now, so the log says what will be sent; `now` is when the request came in.
    let answer: Answer;
    try {
      answer = variant.answer(input);
    } catch (err) {
      if (!(err instanceof TemplateError)) throw err;
      answer = jsonAnswer(500, { success: false, message: err.message, field: err.field }, cors);
    }
    const media = contentOf(endpoint.record, variant.index);
    if (media) answer = mediaAnswer(req, media, answer, cors);
    const planned = callbacks && variant.callbacks?.(input!);
    if (!planned) {
      log(req, endpoint, time, body, bodyTruncated, variant.index, answer.status);
      return later(res, draw(variant.delay), () => send(req, res, answer));
    }
    const results = plannedResults(planned);
    const entry = log(req, endpoint, time, body, bodyTruncated, variant.index, answer.status, undefined, results);
    const changed = callbacksChanged(feed, endpoint.record.name, entry);
    answerThenCall(req, res, draw(variant.delay), () => send(req, res, answer), { sender: callbacks, planned, results, changed });
  };

  const serve: ServeEndpoint = (req, res, path) => {
    if (cors && isPreflight(req)) return answerPreflight(req, res);
    const found = store.route(req.method ?? 'GET', path);
    // json-server's GET /db, where no endpoint of that path answers (before the proxy: it is ours to answer).
    if (!found && collection?.db(req, res, path)) return;
    if (proxy && (!found || 'allow' in found || proxy.passes(found.value, req))) return proxy.forward(req, res, path);
    if (!found || 'allow' in found) {
      const allow = found?.allow;
      const refuse = () => (allow ? notAllowed(req, res, allow, cors) : notFound(req, res, path, cors));
      if (!hasBody(req)) return logUnmatched(req, isoNow(), '', false, allow ? 405 : 404, refuse);
      const time = isoNow();
      return readLoggedBody(req, (body, truncated) => logUnmatched(req, time, body, truncated, allow ? 405 : 404, refuse));
    }
    const { value: endpoint, params } = found;
    if (endpoint.record.kind && options.streams?.(req, res, endpoint, params)) return;
    const time = isoNow();
    if (endpoint.record.collection && collection) {
      return collection.serve(req, res, endpoint.record, { id: params.id, nested: params.nested }, (body, truncated) => {
        endpoint.stats.hits++;
        return (status) => log(req, endpoint, time, body, truncated, null, status);
      });
    }
    if (!hasBody(req)) return respond(req, res, endpoint, params, time, '', false);
    readLoggedBody(req, (body, truncated) => respond(req, res, endpoint, params, time, body, truncated));
  };
  // Outside Koa there is no error middleware: a bug here must not take the process down.
  return (req, res, path) => {
    try {
      serve(req, res, path);
    } catch (err) {
      failed(req, res, err);
    }
  };

  function failed(req: IncomingMessage, res: ServerResponse, err: unknown): void {
    logger.error(`${req.method} ${req.url}: ${(err as Error).stack ?? String(err)}`);
    const answer = jsonAnswer(500, { success: false, message: 'internal server error' }, false);
    if (!res.headersSent) send(req, res, answer);
    else res.destroy();
  }
}

/**
 * The bin a bin's page says it is (X-Snippetkit-Bin: fumugi/3) goes into the log entry when it is a
 * bin and revision, and nowhere else: an untrusted claim that changes no answer. Without the header,
 * one property read.
 */
function nameBin(req: IncomingMessage, entry: LoggedRequest): void {
  const claimed = req.headers[BIN_HEADER_KEY];
  if (claimed === undefined) return;
  const bin = parseBinClaim(claimed);
  if (bin !== undefined) entry.bin = bin;
}

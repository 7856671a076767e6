import Koa from 'koa';
import { errorHandler, HttpError } from '../http/errors.js';
import { originGate, originPolicy } from '../http/origins.js';
import { withoutSessionCookies } from '../http/session-cookie.js';
import { isUnder } from '../http/under.js';
import type { Handler } from '../server/listen.js';
import { silentLogger, type Logger } from '../server/logger.js';
import { MOCK_DEFAULTS } from './config/defaults.js';
import { underBasePath } from './config/base-path.js';
import { apiRouter, type ApiOptions } from './api.js';
import { RequestFeed } from './log/feed.js';
import { createProxy, type ProxySettings } from './proxy/proxy.js';
import { createCollectionServer } from './serve/collection.js';
import { createEndpointServer, type RequestCheck, type ServeEndpoint } from './serve/endpoint.js';
import { createCallbackSender, type CallbackSender } from './callbacks/sender.js';
import { DEFAULT_ASSETS, PAGE_BUNDLE, staticAssets } from './static.js';
import type { MockStore } from './store/store.js';
import { createStreamServer, type StreamServer } from './streams/streams.js';
import type { StreamLimits } from './streams/connections.js';

export type MockConfig = {
  /** Largest `delay` an endpoint may have, in milliseconds. */
  maxDelay: number;
  /** Largest API request body, in bytes. */
  maxBody: number;
  /**
   * CORS headers on /endpoint/* and /api/*, and their preflights answered. false (`--no-cors`): none,
   * and the management API takes writes from no page but the server's own.
   */
  cors: boolean;
  /**
   * Pages that may use the management API besides the mock page and loopback pages (`--cors-origin`,
   * normalized origins); `*` lets every page in. /endpoint/* is open to every page whatever this says.
   */
  corsOrigins: string[];
  /** Honour X-Forwarded-For/-Proto/-Host/-Prefix. */
  trustProxy: boolean;
  /** Folder of the page's hand-written files (HTML, CSS), served under /static/ with its bundle. */
  assets: string;
  /** A keep-alive comment on open event streams this often, in milliseconds. */
  eventKeepAliveMs: number;
  /** Open event streams (live request logs) in all; beyond, a 503. */
  maxEventStreams: number;
  /** Requests a `hang` fault holds at once; past it, a hang closes the connection like `empty`. */
  maxHangs: number;
  /** Forward what no endpoint answers to a real API, and maybe record its answers (--proxy). */
  proxy?: ProxySettings;
  /** CPU time one request's templates or `_like` filters may take, in milliseconds (--max-request-cpu). */
  maxRequestCpu: number;
  /** Hosts callbacks may go to besides loopback (--callback-host). */
  callbackHosts: string[];
  /** How long a callback may take, in milliseconds (--callback-timeout). */
  callbackTimeout: number;
  /** Check requests to endpoints with `expects` unless their record says `validate: false` (--validate). */
  validate: boolean;
  /** Endpoints are answered under this path too (--base-path; checked by config/base-path.ts). */
  basePath?: string;
  /** Limits of WebSocket and event-stream endpoints beyond their defaults (streams/connections.ts). */
  streamLimits: Partial<StreamLimits>;
};

export const DEFAULT_MOCK_CONFIG: MockConfig = {
  maxDelay: MOCK_DEFAULTS.maxDelay,
  maxBody: MOCK_DEFAULTS.maxBody,
  cors: MOCK_DEFAULTS.cors,
  corsOrigins: [],
  trustProxy: false,
  assets: DEFAULT_ASSETS,
  eventKeepAliveMs: 15_000,
  maxEventStreams: 1000,
  maxHangs: 1000,
  maxRequestCpu: MOCK_DEFAULTS.maxRequestCpu,
  callbackHosts: [],
  callbackTimeout: MOCK_DEFAULTS.callbackTimeout,
  validate: false,
  streamLimits: {},
};

export type MockAppOptions = {
  store: MockStore;
  config?: Partial<MockConfig>;
  logger?: Logger;
  /** Pass one in to end the page's event streams at shutdown with `feed.close()`; made here otherwise. */
  feed?: RequestFeed;
  /** Watched files' problems, for GET /api/sources. */
  sources?: ApiOptions['sources'];
  /** Pass one in to drop waiting callbacks at shutdown with `callbacks.close()`; made here (from the config) otherwise. */
  callbacks?: CallbackSender;
};

/**
 * What an allowed page's preflight to the management API is told. No Private Network Access answer:
 * a page on the public internet may not reach into a server on the user's machine.
 */
const API_CORS = { methods: 'GET, PUT, POST, DELETE, OPTIONS' };

/**
 * The Origins gate on everything but /endpoint/* (docs/security.md): the mock page, loopback
 * pages and `--cors-origin` ones may manage endpoints and read their logs; another page's writes are
 * a 403 before anything is done, and its reads carry no CORS headers, so it cannot read them. Every
 * path, not only /api: the router matches /API/… too.
 */
function managementGate(config: MockConfig): Koa.Middleware {
  const policy = config.cors ? originPolicy(config.corsOrigins) : originPolicy([], { loopback: false });
  const hint = (origin: string) =>
    !config.cors
      ? 'the server runs with --no-cors, which allows its own page only'
      : origin === 'null'
        ? "only --cors-origin '*' lets such pages in"
        : `start the server with --cors-origin ${origin} to allow them`;
  const api = originGate({ policy, cors: API_CORS, headers: config.cors, hint });
  const rest = originGate({ policy, cors: API_CORS, headers: false, hint });
  return (ctx, next) => {
    if (ctx.path.startsWith(PREFIX)) return next();
    return isUnder('/api', ctx.path.toLowerCase()) ? api(ctx, next) : rest(ctx, next);
  };
}

/** What the hot path and the Koa app share: the /endpoint/* server and the feed it tells of requests. */
type Serving = { serve: ServeEndpoint; feed: RequestFeed; streams: StreamServer };

/** The mock server as a Koa app that never listens; /endpoint/* goes through the same code as the hot path. */
export function createMockApp(options: MockAppOptions, shared?: Serving): Koa {
  const config = { ...DEFAULT_MOCK_CONFIG, ...options.config };
  const logger = options.logger ?? silentLogger;
  const { serve, feed, streams } = shared ?? serving(options, config, logger);
  const app = new Koa({ proxy: config.trustProxy });
  // Koa would print errors itself; ours are logged once by the error middleware.
  app.silent = true;

  app.use(errorHandler((_status, message, field) => ({ success: false, message, ...(field && { field }) }), logger));
  // Runs after the router's allowedMethods, which turns a 404 on a known path into a 405.
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body == null && ctx.respond !== false) {
      throw new HttpError(404, `no route for ${ctx.method} ${ctx.path}`);
    }
  });
  app.use(managementGate(config));
  app.use(staticAssets([config.assets, PAGE_BUNDLE]));
  const api = apiRouter({ store: options.store, feed, streams, logger, sources: options.sources, ...config });
  app.use(api.routes());
  app.use(api.allowedMethods({ throw: true }));
  app.use(async (ctx, next) => {
    if (!ctx.path.startsWith(PREFIX)) return next();
    // The response is written on the raw objects, exactly as the hot path writes it.
    ctx.respond = false;
    serve(ctx.req, ctx.res, ctx.path.slice(PREFIX.length));
  });
  return app;
}

/**
 * The node request handler to listen with: every URL under `/endpoint/` is answered straight from
 * here, before Koa's middleware chain (one string check, one route lookup), and with `basePath` every
 * URL under it but the server's own routes (config/base-path.ts); everything else goes to Koa.
 */
export function createMockHandler(options: MockAppOptions): Handler {
  const config = { ...DEFAULT_MOCK_CONFIG, ...options.config };
  const shared = serving(options, config, options.logger ?? silentLogger);
  const { serve } = shared;
  const { basePath } = config;
  const koa = createMockApp(options, shared).callback();
  return (req, res) => {
    // The bins' session cookie of a bin server on this host never reaches a log, a template or a proxy.
    if (req.headers.cookie !== undefined) withoutSessionCookies(req);
    const url = req.url ?? '';
    if (!url.startsWith(PREFIX)) {
      const under = basePath === undefined ? undefined : underBasePath(basePath, url);
      return under === undefined ? koa(req, res) : serve(req, res, under);
    }
    const query = url.indexOf('?', PREFIX.length);
    serve(req, res, url.slice(PREFIX.length, query === -1 ? undefined : query));
  };
}

const PREFIX = '/endpoint/';

function serving(options: MockAppOptions, config: MockConfig, logger: Logger): Serving {
  const { store, feed = new RequestFeed() } = options;
  const { cors, trustProxy, maxHangs, maxRequestCpu, maxBody } = config;
  const proxy = config.proxy && createProxy({ ...config.proxy, store, logger, cors });
  // json-server has one database: every collection endpoint, by name, is in it.
  const database = () => new Map(store.list().filter(({ record }) => record.collection).map(({ record }) => [record.name, record]));
  const collection = createCollectionServer({ collections: store.collections, cors, maxBody, logger, maxRequestCpu, database });
  const callbacks =
    options.callbacks ??
    createCallbackSender({ hosts: config.callbackHosts, timeoutMs: config.callbackTimeout, account: store.memory.callbacks });
  const check = requestCheck(config, logger, store);
  const { validate } = config;
  const limits = config.streamLimits;
  const streams = createStreamServer({ store, feed, cors, trustProxy, maxRequestCpu, keepAliveMs: config.eventKeepAliveMs, limits });
  const endpoints = { store, cors, trustProxy, logger, feed, maxHangs, proxy, collection, maxRequestCpu, callbacks, check, validate, streams: streams.serve };
  const serve = createEndpointServer(endpoints);
  // A page open here follows the endpoint's requests on every instance.
  store.onShared((name, entry) => feed.publish(name, entry));
  return { feed, serve, streams };
}

/**
 * Request validation, loaded with ajv at the first request it checks (at start with --validate): a
 * server that validates nothing never loads them.
 */
function requestCheck(config: MockConfig, logger: Logger, store: MockStore): RequestCheck {
  let loaded: RequestCheck | undefined;
  let loading: Promise<RequestCheck> | undefined;
  const load = () =>
    (loading ??= import('./request-check/check-request.js').then(({ createRequestCheck }) => {
      loaded = createRequestCheck({ memory: store.memory.records, maxRequestCpu: config.maxRequestCpu, logger });
      return loaded;
    }));
  if (config.validate) load().catch((err: unknown) => logger.error(`request validation did not load: ${String(err)}`));
  return (...args) => (loaded ? loaded(...args) : load().then((check) => check(...args)));
}

import Koa, { type Middleware } from 'koa';
import compose from 'koa-compose';
import { conditionalGet } from '../http/conditional.js';
import { errorHandler, HttpError } from '../http/errors.js';
import { isUnder, under } from '../http/under.js';
import type { Handler } from '../server/listen.js';
import { silentLogger, type Logger } from '../server/logger.js';
import { createApiRouter } from './api/api.js';
import { clientAssets } from './assets/assets.js';
import { compileRoute } from './compile/route.js';
import { createCompiler, type Compiler } from './compile/compiler.js';
import type { BinConfig } from './config/config.js';
import { errorPage, rootFrom } from './assets/page-templates.js';
import { createLiveHub, type LiveHub } from './live/hub.js';
import { liveRoutes } from './live/routes.js';
import { fastPages } from './pages/fast-pages.js';
import { binApiOrigins } from './api/api-origins.js';
import { fastApiReads } from './api/fast-read.js';
import { fastApiSaves } from './api/fast-save.js';
import { keySession } from './auth/key-session.js';
import { listPage } from './pages/list-page.js';
import { createPageCache, type PageCache } from './pages/page-cache.js';
import { createPages } from './pages/pages.js';
import { jsBinRedirects } from './pages/redirects.js';
import { framing } from './config/security-headers.js';
import { notifySaves, type BinStore } from './store/store-events.js';
import type { MockTokens } from '../server/mock-token.js';

export type BinAppOptions = {
  store: BinStore;
  config: BinConfig;
  logger?: Logger;
  /** Preprocessors; by default a pool of compile children started on first use (idle ones never hold the process). */
  compiler?: Compiler;
  /** Live sharing's event streams (SSE). */
  live?: LiveHub;
  /** Rendered output pages; by default config `cache.pagesMB` of them. */
  pages?: PageCache;
  /** How the owner finds a key the server made itself, for the editor's key dialog (EditorData.keyHint). */
  keyHint?: string;
  /** Beside private mocks (`serve --private-mocks`): the tokens its owner's output pages carry. */
  mockTokens?: MockTokens;
};

/** The bin server as a Koa app; it never listens, reads the environment or prints. */
export function createBinApp({
  store,
  config,
  logger = silentLogger,
  compiler = createCompiler(),
  live = createLiveHub(),
  pages = createPageCache(config.cache.pagesMB * 1024 * 1024),
  keyHint,
  mockTokens,
}: BinAppOptions): Koa {
  const app = new Koa();
  store = followedSaves(store, live);
  // Koa would print errors itself (a client that times out, say); ours are logged once by the error middleware.
  app.silent = true;

  // One error middleware: JSON in JS Bin's shape under /api and for event streams, an HTML page for
  // everything a browser opens.
  app.use(
    errorHandler((status, message, field, ctx) => {
      // Lower-cased: the router answers /API/… as API routes.
      if (isUnder('/api', ctx.path.toLowerCase()) || ctx.get('Accept').includes('text/event-stream')) {
        return field ? { error: message, field } : { error: message };
      }
      ctx.type = 'html';
      return errorPage(status, message, rootFrom(ctx.path));
    }, logger),
  );

  // --- the Origins gate: what acts as the owner (the key, the list, deletes) only from our own,
  // loopback and cors.ownerOrigins pages; another page's such writes are refused before the key is looked at
  const origins = binApiOrigins(config);
  app.use(origins.owner);

  // --- a wrong key is refused everywhere; a browser gives the key once and keeps a session cookie
  app.use(keySession(config));

  // --- live sharing (event streams, broadcasts, remote console) and preprocessing for the preview
  app.use(liveRoutes({ hub: live, store, compiler, config }));
  app.use(compileRoute({ compiler, config }));

  // --- the REST API: the public part's CORS first (preflights carry no key), ETags and 304s for its
  // reads, then the routes (which read bodies after auth)
  const api = createApiRouter({ store, config });
  const apiNotFound: Middleware = () => {
    throw new HttpError(404, 'not found');
  };
  const apiChain = [origins.open, conditionalGet(), api.routes() as Middleware, apiNotFound];
  app.use(under('/api', compose(apiChain)));

  // --- health
  app.use(async (ctx, next) => {
    if (ctx.path !== '/status') return next();
    // In full, as sendJson does: nothing a health check asks needs mime-types' table loaded.
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = 'OK';
  });

  // --- the editor, output pages, the bin list and the editor's bundle, with ETags and 304s
  app.use(conditionalGet());
  app.use(clientAssets());
  app.use(jsBinRedirects());
  app.use(listPage({ store, config }));
  app.use(createPages({ store, compiler, live, config, framing: framing(config.output.frameAncestors), pages, keyHint, mockTokens }));

  app.use(() => {
    throw new HttpError(404, 'not found');
  });
  return app;
}

/**
 * The server's request handler: the Koa app, behind the fast paths for anonymous API reads and saves
 * and kept output pages. What the CLI listens with; createBinApp alone serves everything the same way, only slower.
 */
export function createBinHandler(options: BinAppOptions): Handler {
  const { store, config } = options;
  const pages = options.pages ?? createPageCache(config.cache.pagesMB * 1024 * 1024);
  const live = options.live ?? createLiveHub();
  const app = createBinApp({ ...options, pages, live }).callback();
  const ownerPages = options.mockTokens !== undefined;
  const fast = fastPages({ store, config, framing: framing(config.output.frameAncestors), pages, ownerPages }, app);
  const saves = fastApiSaves(followedSaves(store, live), config, fast);
  return fastApiReads(store, config, saves);
}

/** `store` whose every save, whatever route makes it, moves the bin's followers on to the new revision. */
function followedSaves(store: BinStore, live: LiveHub): BinStore {
  return notifySaves(store, (saved) => live.bumpRevision(saved.bin, saved.rev));
}


import Koa, { type Middleware } from 'koa';
import compose from 'koa-compose';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { errorHandler, HttpError } from '../http/errors.js';
import { under } from '../http/under.js';
import { silentLogger, type Logger } from '../server/logger.js';
import { createApiRouter } from './api.js';
import type { BinConfig } from './config.js';
import { apiCors } from './cors.js';
import type { BinStore } from './store.js';

export type BinAppOptions = {
  store: BinStore;
  config: BinConfig;
  logger?: Logger;
};

/** The bin server as a Koa app; it never listens, reads the environment or prints. */
export function createBinApp({ store, config, logger = silentLogger }: BinAppOptions): Koa {
  const app = new Koa();
  const limit = config['max-request-size'];

  app.use(errorHandler((_status, message, field) => (field ? { error: message, field } : { error: message }), logger));

  // --- the REST API: CORS first (preflights carry no key), then the body, then the routes
  const api = createApiRouter({ store, config });
  const body = koaBody({
    jsonLimit: limit,
    formLimit: limit,
    text: false,
    multipart: false,
    parsedMethods: [HttpMethodEnum.POST],
  });
  const apiNotFound: Middleware = () => {
    throw new HttpError(404, 'not found');
  };
  app.use(under('/api', compose([apiCors(config.cors.origin), body, api.routes() as Middleware, apiNotFound])));

  // --- health
  app.use(async (ctx, next) => {
    if (ctx.path !== '/status') return next();
    ctx.type = 'text/plain';
    ctx.body = 'OK';
  });

  app.use(() => {
    throw new HttpError(404, 'not found');
  });
  return app;
}

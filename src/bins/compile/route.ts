import type { Middleware } from 'koa';
import { HttpError } from '../../http/errors.js';
import { LABELS, type Processor } from '../../shared/processors.js';
import { checkRead } from '../auth/auth.js';
import type { Compiler } from './compiler.js';
import type { BinConfig } from '../config/config.js';
import { rateLimiter, readJsonObject, stringField } from '../../http/json-object.js';
import { sendJson } from '../../http/json-answer.js';

export type CompileRouteOptions = { compiler: Compiler; config: BinConfig; perMinute?: number };

/**
 * `POST /api/compile` `{ processor, source }` → `{ code }`, or 422 `{ error, line?, column? }` when the
 * source does not compile. The editor's preview compiles here rather than in the browser: one set of
 * compilers (Pug and TypeScript have no small browser build), the same results as the output pages,
 * and Pug's template code never runs on the editor's origin, where the API key is kept.
 */
export function compileRoute({ compiler, config, perMinute = 600 }: CompileRouteOptions): Middleware {
  const limit = rateLimiter(perMinute);
  return async (ctx, next) => {
    if (ctx.path !== '/api/compile') return next();
    if (ctx.method !== 'POST') throw new HttpError(405, 'use POST');
    checkRead(ctx, config);
    limit(ctx);
    // Room for JSON escaping of the largest source the compiler takes.
    const body = await readJsonObject(ctx, 2 * 1024 * 1024);
    const processor = stringField(body, 'processor');
    const source = stringField(body, 'source');
    if (!(processor in LABELS)) {
      throw new HttpError(400, `processor must be one of ${Object.keys(LABELS).join(', ')}`, 'processor');
    }
    const result = await compiler.compile(processor as Processor, source, ctx.ip);
    if (result.ok) {
      sendJson(ctx, { code: result.code });
    } else {
      ctx.status = 422;
      const { message, line, column } = result.error;
      sendJson(ctx, { error: message, ...(line !== undefined && { line, column }) });
    }
  };
}

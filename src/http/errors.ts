import type { Context, Middleware } from 'koa';
import type { Logger } from '../server/logger.js';
import { StoreUnavailable } from '../store/unavailable.js';
import { sendJson } from './json-answer.js';

/** An error meant for the client: its status and message are sent as they are. */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly expose = true;
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** What a client is told of an error: its status, message, field and Retry-After seconds. */
export type ClientError = { status: number; message: string; field?: string; retryAfter?: number };

/**
 * The errors meant for the client, as the client is told them: ours (HttpError) as they are, and the
 * store's unavailability as a 503 with Retry-After. Anything else is undefined: a 500 whose cause is
 * logged, never sent.
 */
export function clientError(err: unknown): ClientError | undefined {
  if (err instanceof HttpError) return err;
  if (err instanceof StoreUnavailable) return { status: 503, message: err.message, retryAfter: err.retryAfter };
  return undefined;
}

export type ErrorBody = (status: number, message: string, field: string | undefined, ctx: Context) => unknown;

type ThrownError = Error & { status?: number; statusCode?: number; expose?: boolean; field?: string; retryAfter?: number };

/**
 * The one error middleware of an app, placed first. Client errors (HttpError, Koa's ctx.throw,
 * koa-static's refusals) keep their status and message; anything else is logged and answered as
 * a generic 500, never with a stack.
 */
export function errorHandler(body: ErrorBody, logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const err = thrown as ThrownError;
      const ours = clientError(thrown);
      let status = ours?.status ?? err.status ?? err.statusCode ?? 500;
      let message: string;
      if (ours) {
        // ours, worded for the client whatever its status (a 503 when a limit is reached, say)
        message = ours.message;
      } else if (status >= 400 && status < 500 && err.expose !== false) {
        message = err.message;
      } else {
        if (status < 500) status = 500;
        logger.error(`${ctx.method} ${ctx.path}: ${err.stack ?? String(thrown)}`);
        message = 'internal server error';
      }
      ctx.status = status;
      const answer = body(status, message, ours ? ours.field : err.field, ctx);
      if (typeof answer === 'string') ctx.body = answer;
      else sendJson(ctx, answer);
      if (ours?.retryAfter !== undefined) ctx.set('Retry-After', String(ours.retryAfter));
      // A body not received in time, or refused for its size while being read, is left unread: the
      // connection is not reused. One refused for its declared size, unread, is drained (up to a cap):
      // closing on a client still sending makes it fail to write (EPIPE) before it reads the 413.
      if (status === 408 || (status === 413 && !drainable(ctx))) ctx.set('Connection', 'close');
    }
  };
}


/**
 * Bytes of a body refused for its declared Content-Length that the server reads and drops, so that
 * the client can read the 413 (Node's server reads the rest of an unread body before the next
 * request); past it, the connection is closed as for any other refused body.
 */
export const MAX_DRAINED_BODY = 64 * 1024 * 1024;

function drainable(ctx: Context): boolean {
  const { req } = ctx;
  const declared = Number(req.headers['content-length']);
  return !req.readableDidRead && req.headers['transfer-encoding'] === undefined && declared <= MAX_DRAINED_BODY;
}

import { HttpError } from '../http/errors.js';

/**
 * The shared store (PostgreSQL, Redis) cannot be reached: answered 503, so a client retries rather than
 * waits. Engines throw it for a refused or dropped connection and for a request the driver would
 * otherwise queue until the store is back; nothing it was part of was acknowledged.
 */
export class StoreUnavailable extends HttpError {
  override name = 'StoreUnavailable';
  /** Seconds, for the answer's Retry-After: an instance reconnects within about that. */
  readonly retryAfter = 2;
  constructor(override readonly cause?: unknown) {
    super(503, 'the store is unavailable; try again shortly');
  }
}

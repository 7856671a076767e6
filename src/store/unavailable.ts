/**
 * The shared store (PostgreSQL, Redis) cannot be reached. Engines throw it for a refused or dropped
 * connection and for a request the driver would otherwise queue until the store is back; nothing it
 * was part of was acknowledged. The HTTP layer answers it 503 with Retry-After (http/errors.ts
 * clientError), so a client retries rather than waits; the store itself knows no HTTP.
 */
export class StoreUnavailable extends Error {
  override name = 'StoreUnavailable';
  /** Seconds, for the answer's Retry-After: an instance reconnects within about that. */
  readonly retryAfter = 2;
  constructor(override readonly cause?: unknown) {
    super('the store is unavailable; try again shortly');
  }
}

import { DEFAULT_MAX_REQUEST_CPU } from '../../gates/cpu-budget.js';
import { DEFAULT_MEMORY_LIMITS } from '../../gates/memory-budget.js';

/**
 * The defaults of the mock server's flags. The app and the store take theirs from here, and so does
 * `serve-mocks` (the proxy's among them), which reads its flags before it loads either.
 */
export const MOCK_DEFAULTS = {
  /** The longest delay an endpoint may ask for, in milliseconds (--max-delay). */
  maxDelay: 60_000,
  /** The largest request body read, in bytes (--max-body). */
  maxBody: 1024 * 1024,
  /**
   * The largest body of POST /api/endpoints/import, in bytes, when --max-body is smaller: an import is
   * a whole document's endpoints (Stripe's description, 4 MB, makes several times that in records),
   * not one endpoint. What is kept is still bounded by --max-store-bytes.
   */
  maxImportBody: 32 * 1024 * 1024,
  /** Access-Control-Allow-Origin: * on endpoint answers (--no-cors). */
  cors: true,
  /** Requests kept in each endpoint's log (--log-size). */
  logSize: 100,
  /** Anyone who reaches the port may create endpoints, and each holds a log: a cap bounds memory and the file. */
  maxEndpoints: 10_000,
  /** Bytes all request logs hold together, in memory and in the data file (--max-log-bytes). */
  maxLogBytes: DEFAULT_MEMORY_LIMITS.logs,
  /** Bytes endpoint records may hold together (--max-store-bytes). */
  maxStoreBytes: DEFAULT_MEMORY_LIMITS.records,
  /** CPU one request's templates or `_like` filters may take, in milliseconds (--max-request-cpu). */
  maxRequestCpu: DEFAULT_MAX_REQUEST_CPU,
  /** How long a proxied request may take, in milliseconds (--proxy-timeout). */
  proxyTimeout: 30_000,
  /** Connections the proxy keeps open to its target at most. */
  proxyConnections: 100,
  /** How long a callback may take, from sending to the end of its answer, in milliseconds (--callback-timeout). */
  callbackTimeout: 10_000,
} as const;

import pg from 'pg';
import { withoutPassword } from '../store-url.js';
import { StoreUnavailable } from '../unavailable.js';

export type Row = Record<string, unknown>;

/**
 * One statement. A `name` prepares it once per connection (pg keeps it by name for the connection's
 * life); a name must always go with the same text.
 */
export type Statement = { name?: string; text: string; values?: unknown[] };

export type StatementRunner = (statement: Statement) => Promise<Row[]>;

/** A pool of connections to one PostgreSQL database. */
export type PostgresDb = {
  /** Runs one statement on any connection; a failed connection rejects with StoreUnavailable. */
  query: StatementRunner;
  /** Runs `work` in one transaction on one connection: committed if it resolves, rolled back if not. */
  transaction<T>(work: (query: StatementRunner) => Promise<T>): Promise<T>;
  /** The URL without its password. */
  readonly where: string;
  /** Ends every connection; again, it waits for the first. */
  close(): Promise<void>;
};

/**
 * How long a connection may take, and (pg's pool uses one setting for both) how long a statement may
 * wait for a pooled one: a stopped server refuses at once, a host that does not answer fails in this
 * time; long enough that a burst queued behind the pool on a loaded machine is not refused.
 */
export const CONNECT_TIMEOUT_MS = 5000;

/** Connection settings every connection of ours uses: a short connect timeout, TCP keep-alive, a query timeout. */
export const connectionConfig = (url: string): pg.ClientConfig => ({
  connectionString: url,
  connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  keepAlive: true,
  // A server that holds the connection open but stops answering fails the query here (a 503) rather than
  // holding the request until TCP gives up; well above any one statement of ours.
  query_timeout: QUERY_TIMEOUT_MS,
});

/** Pooled connections per instance unless the store URL says (`?pool=`): node-postgres's own default. */
export const DEFAULT_POOL = 10;

/** How long one statement may go unanswered before the store counts as unavailable. */
export const QUERY_TIMEOUT_MS = 15_000;

/**
 * Opens a pool of up to `size` connections on `url` (made on first use). A connection the server drops is
 * discarded and the next statement opens another, so the pool outlives a server restart; pg emits
 * such a drop as an 'error' event, which would crash the process without a listener, hence ours on
 * the pool (idle connections) and on each connection (one checked out).
 */
export function openPostgres(url: string, size = DEFAULT_POOL): PostgresDb {
  const pool = new pg.Pool({ ...connectionConfig(url), max: size });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));

  const run = (client: pg.Pool | pg.PoolClient): StatementRunner => async (statement) => {
    try {
      return (await client.query<Row>(statement)).rows;
    } catch (err) {
      throw asStoreError(err);
    }
  };

  let ending: Promise<void> | undefined;
  return {
    query: run(pool),
    async transaction(work) {
      const client = await pool.connect().catch((err: unknown) => {
        throw asStoreError(err);
      });
      let broken = false;
      try {
        const query = run(client);
        await query({ text: 'BEGIN' });
        const result = await work(query);
        await query({ text: 'COMMIT' });
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw err;
      } finally {
        client.release(broken);
      }
    },
    where: withoutPassword(url),
    close: () => (ending ??= pool.end()),
  };
}

// Failures of the connection, not of the statement: the store is unreachable (or going away).
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '53300', // too_many_connections: the server is full, try again shortly
]);
const CONNECTION_MESSAGES = /^Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable/;

/** Whether `err` says the connection failed (refused, dropped, timed out, server shutting down). */
export function isConnectionFailure(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08') || /^57P0\d$/.test(code))) {
    return true;
  }
  // Node's connect to a name with several addresses fails with all of them at once.
  if (err instanceof AggregateError && err.errors.some(isConnectionFailure)) return true;
  return CONNECTION_MESSAGES.test(err.message);
}

/** StoreUnavailable for a connection failure; any other error as it is. */
export function asStoreError(err: unknown): unknown {
  return isConnectionFailure(err) ? new StoreUnavailable(err) : err;
}


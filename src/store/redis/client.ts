import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  createClient,
  defineScript,
  DisconnectsClientError,
  ErrorReply,
  ReconnectStrategyError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  type CommandParser,
  type RedisArgument,
  type RedisClientType,
  type RedisScripts,
} from '@redis/client';
import { DataFileError, reason } from '../data-file.js';
import { HEARTBEAT_MS, keepAsking } from '../heartbeat.js';
import { retryDelay, retrying } from '../retry.js';
import { withoutPassword } from '../store-url.js';
import { StoreUnavailable } from '../unavailable.js';

/** A Lua script the client runs by EVALSHA (EVAL once after a restart emptied Redis's script cache). */
export function luaScript(source: string, numberOfKeys: number) {
  return defineScript({
    SCRIPT: source,
    NUMBER_OF_KEYS: numberOfKeys,
    parseCommand(parser: CommandParser, keys: string[], args: RedisArgument[]) {
      parser.pushKeys(keys);
      parser.push(...args);
    },
    transformReply: (reply: unknown) => reply,
  });
}

export type RedisClient<S extends RedisScripts> = RedisClientType<{}, {}, S>;

const CONNECT_TIMEOUT_MS = 2_000;

/**
 * A connected client on `url` (`redis://[user:password@]host:port/db`, `rediss://` for TLS) with
 * `scripts`. While Redis is away a command fails at once (no offline queue: queued commands would
 * hang until Redis is back) and the client reconnects, 100 ms doubling to 2 s, for as long as it runs.
 * The first connection does not retry: opening fails (DataFileError, its message naming the URL
 * without its password) so the server stops with a reason rather than starting without its store.
 */
export async function openRedisClient<S extends RedisScripts>(url: string, scripts: S): Promise<RedisClient<S>> {
  let connected = false;
  const client = createClient({
    url,
    scripts,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries: number, cause: Error) => (connected ? retryDelay(retries) : cause),
    },
  });
  // Without a listener, an 'error' event (every dropped connection emits one) ends the process.
  // Commands report the failures that matter, as StoreUnavailable (unavailableOnFailure).
  client.on('error', () => {});
  client.on('ready', () => {
    connected = true;
  });
  try {
    await client.connect();
  } catch (err) {
    if (client.isOpen) client.destroy();
    const cause = err instanceof ReconnectStrategyError ? err.originalError : err;
    throw new DataFileError(`cannot connect to Redis at ${withoutPassword(url)}: ${reason(cause)}`);
  }
  return client as RedisClient<S>;
}

/** Closes a client, whether or not it is connected. */
export async function closeRedisClient(client: {
  isOpen: boolean;
  isReady: boolean;
  close(): Promise<void>;
  destroy(): void;
}): Promise<void> {
  if (!client.isOpen) return;
  if (client.isReady) await client.close();
  else client.destroy();
}

/**
 * Whether `err` says Redis cannot be reached now, rather than that a command is wrong: the client is
 * offline, closed or timed out, its socket failed, or Redis is loading its data or has lost its master.
 */
export function isUnavailable(err: unknown): boolean {
  if (
    err instanceof ClientOfflineError ||
    err instanceof ClientClosedError ||
    err instanceof SocketClosedUnexpectedlyError ||
    err instanceof ConnectionTimeoutError ||
    err instanceof SocketTimeoutError ||
    err instanceof DisconnectsClientError ||
    err instanceof ReconnectStrategyError
  ) {
    return true;
  }
  if (err instanceof ErrorReply) return /^(LOADING|MASTERDOWN)\b/.test(err.message);
  // A system error of the socket: ECONNRESET, EPIPE, ECONNREFUSED...
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string';
}

/**
 * How long a command may go unanswered before Redis counts as unavailable: a server that holds the
 * connection open but stops answering (paused, swapping, a long script) fails the request with a 503
 * rather than holding it until TCP gives up, as PostgreSQL's query timeout does. The client's own
 * command timeout cannot do this: it stops counting once the command is written.
 */
export const REPLY_TIMEOUT_MS = 15_000;

/**
 * Runs `work`, its "cannot reach Redis" failures, and no answer within `timeoutMs`, turned into
 * StoreUnavailable (a 503); others pass. A command that times out may still be applied later, as one
 * whose answer a dropped connection lost: it was never acknowledged.
 */
export async function unavailableOnFailure<T>(work: () => Promise<T>, timeoutMs = REPLY_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailable(new Error(`Redis did not answer within ${timeoutMs} ms`))), timeoutMs);
  });
  try {
    return await Promise.race([work(), deadline]);
  } catch (err) {
    throw err instanceof StoreUnavailable || !isUnavailable(err) ? err : new StoreUnavailable(err);
  } finally {
    clearTimeout(timer);
  }
}

export type RedisSubscriber = { close(): Promise<void> };

const HEARTBEAT = { everyMs: HEARTBEAT_MS, timeoutMs: REPLY_TIMEOUT_MS };

/**
 * Listens on the channels on one connection of its own (a subscribed connection runs no other
 * command), each channel's messages to its handler. `onState(false)` when that connection drops
 * (messages published meanwhile are lost), `onState(true)` once it is subscribed again; it reconnects
 * as openRedisClient's clients do. One that does not answer a heartbeat (PING, heartbeat.ts) in time is
 * closed and replaced (retrying). Resolves once subscribed.
 */
export async function openRedisSubscriber(
  url: string,
  channels: Record<string, (text: string) => void>,
  onState: (listening: boolean) => void,
  heartbeat = HEARTBEAT,
): Promise<RedisSubscriber> {
  let listening = true;
  const tell = (now: boolean) => {
    if (listening === now) return;
    listening = now;
    try {
      onState(now);
    } catch {}
  };
  const subscribed = async () => {
    const client = await openRedisClient(url, {});
    try {
      for (const [channel, onPayload] of Object.entries(channels)) {
        await unavailableOnFailure(
          () =>
            client.subscribe(channel, (message) => {
              // A listener's failure must not reach the client: it would throw inside its reply parser.
              try {
                onPayload(message);
              } catch {}
            }),
          heartbeat.timeoutMs,
        );
      }
    } catch (err) {
      client.destroy();
      throw err;
    }
    // 'reconnecting' follows every drop; 'ready' comes after the client has subscribed again.
    client.on('reconnecting', () => tell(false));
    client.on('ready', () => tell(true));
    return client;
  };

  let closed = false;
  let client: RedisClient<{}> | undefined = await subscribed();
  const replace = async (stale: RedisClient<{}>) => {
    tell(false);
    stale.removeAllListeners('ready');
    stale.destroy();
    client = undefined;
    await retrying(async () => {
      const fresh = await subscribed();
      if (closed) return fresh.destroy();
      client = fresh;
      tell(true);
    }, () => !closed);
  };
  // A reconnecting client is the client's own to bring back: only a ready one is asked.
  const stopBeating = keepAsking(heartbeat.everyMs, () => {
    const current = client;
    return current?.isReady ? unavailableOnFailure(() => current.ping(), heartbeat.timeoutMs).catch(() => replace(current)) : undefined;
  });
  return {
    async close() {
      closed = true;
      stopBeating();
      if (client?.isOpen) client.destroy();
    },
  };
}

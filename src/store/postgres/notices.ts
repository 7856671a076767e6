import pg from 'pg';
import { HEARTBEAT_MS, keepAsking } from '../heartbeat.js';
import { connectionConfig, QUERY_TIMEOUT_MS } from './client.js';
import { retryDelay } from '../retry.js';
import { StoreUnavailable } from '../unavailable.js';

export type NoticeOptions = {
  url: string;
  /** Each channel listened on, with what gets its notices' payloads, as sent. */
  channels: Record<string, (payload: string) => void>;
  /** false when the connection dropped (notices may be missed until true: it listens again). */
  onState(listening: boolean): void;
  /** How often the listening connection is asked `SELECT 1`, and how long it has to answer (tests shorten them). */
  heartbeat?: { everyMs: number; timeoutMs: number };
};

export type NoticeListener = { close(): Promise<void> };

const HEARTBEAT = { everyMs: HEARTBEAT_MS, timeoutMs: QUERY_TIMEOUT_MS };

/**
 * LISTENs on the channels on one connection of its own (a pooled one would not stay): PostgreSQL
 * wakes every listening connection at each notice, so an instance holds one. Resolves once it
 * listens, or rejects with StoreUnavailable if it cannot connect at first; after that, a dropped
 * connection is reopened (retryDelay between attempts) until it listens again, for as long as it is
 * not closed; so is one that does not answer a heartbeat (`SELECT 1`, heartbeat.ts) in time. Nothing it meets throws:
 * a pg client's unheard 'error' would end the process.
 */
export async function listenForNotices(options: NoticeOptions): Promise<NoticeListener> {
  let closed = false;
  let current: pg.Client | undefined;
  let attempt: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let retries = 0;
  const heartbeat = options.heartbeat ?? HEARTBEAT;

  function lost(client: pg.Client): void {
    client.end().catch(() => {});
    if (client !== current) return; // one that never listened, or already reported
    current = undefined;
    if (closed) return;
    options.onState(false);
    retry();
  }

  function retry(): void {
    timer = setTimeout(() => {
      timer = undefined;
      attempt = listen().then(
        () => {
          retries = 0;
          if (!closed) options.onState(true);
        },
        () => {
          retries++;
          if (!closed) retry();
        },
      );
    }, retryDelay(retries));
  }

  async function listen(): Promise<void> {
    // Its statements (LISTEN, the heartbeat) time out as the heartbeat says.
    const client = new pg.Client({ ...connectionConfig(options.url), query_timeout: heartbeat.timeoutMs });
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    client.on('notification', (notice) => {
      if (notice.payload !== undefined) options.channels[notice.channel]?.(notice.payload);
    });
    try {
      await client.connect();
      for (const channel of Object.keys(options.channels)) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      client.end().catch(() => {});
      throw new StoreUnavailable(err);
    }
    if (closed) {
      await client.end().catch(() => {});
      throw new Error('closed');
    }
    current = client;
  }

  await listen();
  const stopBeating = keepAsking(heartbeat.everyMs, () => {
    const client = current;
    return client?.query('SELECT 1').catch(() => lost(client));
  });
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      stopBeating();
      await attempt?.catch(() => {});
      const client = current;
      current = undefined;
      await client?.end().catch(() => {});
    },
  };
}

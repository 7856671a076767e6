import pg from 'pg';
import { connectionConfig } from './postgres.js';
import { StoreUnavailable } from './unavailable.js';

export type NoticeOptions = {
  url: string;
  /** Each channel listened on, with what gets its notices' payloads, as sent. */
  channels: Record<string, (payload: string) => void>;
  /** false when the connection dropped (notices may be missed until true: it listens again). */
  onState(listening: boolean): void;
};

export type NoticeListener = { close(): Promise<void> };

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 2000;

/**
 * LISTENs on the channels on one connection of its own (a pooled one would not stay): PostgreSQL
 * wakes every listening connection at each notice, so an instance holds one. Resolves once it
 * listens, or rejects with StoreUnavailable if it cannot connect at first; after that, a dropped
 * connection is reopened (100 ms, doubling to 2 s between attempts) until it listens again, for as
 * long as it is not closed. Nothing it meets throws: a pg client's unheard 'error' would end the process.
 */
export async function listenForNotices(options: NoticeOptions): Promise<NoticeListener> {
  let closed = false;
  let current: pg.Client | undefined;
  let attempt: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let delay = FIRST_RETRY_MS;

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
          delay = FIRST_RETRY_MS;
          if (!closed) options.onState(true);
        },
        () => {
          delay = Math.min(delay * 2, LAST_RETRY_MS);
          if (!closed) retry();
        },
      );
    }, delay);
  }

  async function listen(): Promise<void> {
    const client = new pg.Client(connectionConfig(options.url));
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
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await attempt?.catch(() => {});
      const client = current;
      current = undefined;
      await client?.end().catch(() => {});
    },
  };
}

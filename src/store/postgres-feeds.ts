import { randomBytes } from 'node:crypto';
import { changeFeed, changeNotice, type ChangeFeed, type ChangeReader } from './change-feed.js';
import { openPostgres, type PostgresDb } from './postgres.js';
import { listenForNotices } from './postgres-notices.js';
import { postgresRelay } from './postgres-relay.js';
import { preparePostgresPart, type PostgresSchemaPart } from './postgres-schema-part.js';
import type { Relay } from './relay.js';

export type FeedOptions<C> = {
  /** The engine instance's id, which its own notices carry. */
  self: string;
  changes: { channel: string; read: ChangeReader<C> };
  live: { channel: string; table: string };
};

type Feeds<C> = { changes: ChangeFeed<C>; relay: Relay; close(): Promise<void> };

/**
 * An engine's two ways of hearing the other instances, on one listening connection: the change feed
 * and the relay. Resolves once it listens (StoreUnavailable if it cannot connect).
 */
export async function openPostgresFeeds<C>(url: string, db: PostgresDb, options: FeedOptions<C>): Promise<Feeds<C>> {
  const changes = changeFeed(options.self, options.changes.read);
  const live = postgresRelay(db, options.live.channel, options.live.table);
  const listener = await listenForNotices({
    url,
    channels: { [options.changes.channel]: changes.onPayload, [options.live.channel]: live.onPayload },
    onState: changes.onState,
  });
  return { changes: changes.feed, relay: live.relay, close: () => listener.close() };
}

/**
 * What an engine on PostgreSQL starts from: the pool, its schema part ready, its feeds listening, and
 * `notice`, which makes the payload of a write's notice (changeNotice) as this instance. Closes what
 * it opened if any step fails.
 */
export async function openPostgresEngine<C extends object>(
  url: string,
  options: { schema: PostgresSchemaPart } & Omit<FeedOptions<C>, 'self'>,
): Promise<Feeds<C> & { db: PostgresDb; notice(change: C): string }> {
  const db = openPostgres(url);
  const self = randomBytes(8).toString('hex');
  let feeds: Feeds<C>;
  try {
    await preparePostgresPart(db, options.schema);
    feeds = await openPostgresFeeds(url, db, { self, changes: options.changes, live: options.live });
  } catch (err) {
    await db.close();
    throw err;
  }
  return {
    db,
    ...feeds,
    notice: (change) => changeNotice(self, change),
    async close() {
      try {
        await feeds.close();
      } finally {
        await db.close();
      }
    },
  };
}

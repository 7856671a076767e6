import { changeFeed, openEngineFeeds, type ChangeReader, type Feeds } from '../change-feed.js';
import { openPostgres, type PostgresDb } from './client.js';
import { listenForNotices } from './notices.js';
import { postgresRelay } from './relay.js';
import { preparePostgresPart, type PostgresSchemaPart } from './schema-part.js';

export type FeedOptions<C> = {
  /** The engine instance's id, which its own notices carry. */
  self: string;
  changes: { channel: string; read: ChangeReader<C> };
  live: { channel: string; table: string };
};

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
 * What an engine on PostgreSQL starts from: the pool (`pool` connections at most), its schema part ready, and its feeds listening
 * (openEngineFeeds: with `notice`). Closes the pool if a step fails.
 */
export async function openPostgresEngine<C extends object>(
  url: string,
  options: { schema: PostgresSchemaPart; pool?: number | undefined } & Omit<FeedOptions<C>, 'self'>,
): Promise<Feeds<C> & { db: PostgresDb; notice(change: C): string }> {
  const db = openPostgres(url, options.pool);
  const feeds = await openEngineFeeds<C>(() => db.close(), async (self) => {
    await preparePostgresPart(db, options.schema);
    return openPostgresFeeds(url, db, { self, changes: options.changes, live: options.live });
  });
  return { db, ...feeds };
}

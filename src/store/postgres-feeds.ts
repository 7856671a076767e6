import type { ChangeFeed } from './change-feed.js';
import { changeFeed, type ChangeReader } from './postgres-changes.js';
import type { PostgresDb } from './postgres.js';
import { listenForNotices } from './postgres-notices.js';
import { postgresRelay } from './postgres-relay.js';
import type { Relay } from './relay.js';

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
export async function openPostgresFeeds<C>(
  url: string,
  db: PostgresDb,
  options: FeedOptions<C>,
): Promise<{ changes: ChangeFeed<C>; relay: Relay; close(): Promise<void> }> {
  const changes = changeFeed(options.self, options.changes.read);
  const live = postgresRelay(db, options.live.channel, options.live.table);
  const listener = await listenForNotices({
    url,
    channels: { [options.changes.channel]: changes.onPayload, [options.live.channel]: live.onPayload },
    onState: changes.onState,
  });
  return { changes: changes.feed, relay: live.relay, close: () => listener.close() };
}

import { changeFeed, openEngineFeeds, type ChangeReader, type Feeds } from '../change-feed.js';
import { closeRedisClient, openRedisSubscriber } from './client.js';
import { redisRelay } from './relay.js';
import { prepareRedisPart, type RedisSchemaPart } from './schema-part.js';

type FeedOptions<C> = {
  /** The engine instance's id, which its own notices carry. */
  self: string;
  changes: { channel: string; read: ChangeReader<C> };
  live: { channel: string };
};

/**
 * An engine's two ways of hearing the other instances, on one subscribed connection: the change feed
 * and the relay (which publishes on `client`). Resolves once subscribed.
 */
export async function openRedisFeeds<C>(
  url: string,
  client: Parameters<typeof redisRelay>[0],
  options: FeedOptions<C>,
): Promise<Feeds<C>> {
  const changes = changeFeed(options.self, options.changes.read);
  const live = redisRelay(client, options.live.channel);
  const subscriber = await openRedisSubscriber(
    url,
    { [options.changes.channel]: changes.onPayload, [options.live.channel]: live.onPayload },
    changes.onState,
  );
  return { changes: changes.feed, relay: live.relay, close: () => subscriber.close() };
}

type EngineClient = Parameters<typeof prepareRedisPart>[0] &
  Parameters<typeof redisRelay>[0] &
  Parameters<typeof closeRedisClient>[0];

/**
 * What an engine on Redis starts from, given its client (opened with its scripts and schemaScripts):
 * its schema part recorded and its feeds subscribed (openEngineFeeds: with `notice`). Closes the
 * client if a step fails, and on close.
 */
export async function openRedisEngine<C extends object>(
  url: string,
  client: EngineClient,
  options: { schema: RedisSchemaPart } & Omit<FeedOptions<C>, 'self'>,
): Promise<Feeds<C> & { notice(change: C): string }> {
  return openEngineFeeds<C>(
    () => closeRedisClient(client),
    async (self) => {
      await prepareRedisPart(client, options.schema);
      return openRedisFeeds(url, client, { self, changes: options.changes, live: options.live });
    },
  );
}

import { randomBytes } from 'node:crypto';
import type { Relay } from './relay.js';
import { openRedisSubscriber } from './redis.js';

type Publisher = { publish(channel: string, message: string): Promise<unknown> };

/**
 * A relay (relay.ts) on a Redis channel: messages go out on `client` (one connection, so in the order
 * sent) and come in on a subscribed connection of their own. Each names its instance, so an
 * instance skips its own. A message Redis cannot take (it is away) is dropped.
 */
export async function openRedisRelay(
  url: string,
  client: Publisher,
  channel: string,
): Promise<Relay & { close(): Promise<void> }> {
  const from = randomBytes(8).toString('hex');
  const listeners: ((message: string) => void)[] = [];
  const subscriber = await openRedisSubscriber(
    url,
    channel,
    (text) => {
      const { from: sender, message } = JSON.parse(text) as { from: string; message: string };
      if (sender !== from) for (const listener of listeners) listener(message);
    },
    () => {},
  );
  return {
    publish(message) {
      client.publish(channel, JSON.stringify({ from, message })).catch(() => {});
    },
    subscribe(onMessage) {
      listeners.push(onMessage);
    },
    close: () => subscriber.close(),
  };
}

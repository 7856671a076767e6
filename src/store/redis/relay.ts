import { randomBytes } from 'node:crypto';
import type { Relay } from '../relay.js';

type Publisher = { publish(channel: string, message: string): Promise<unknown> };

/**
 * A relay (relay.ts) on a Redis channel: messages go out on `client` (one connection, so in the order
 * sent); the engine's subscriber feeds what comes in to `onPayload`. Each names its instance, so an
 * instance skips its own. A message Redis cannot take (it is away) is dropped.
 */
export function redisRelay(client: Publisher, channel: string): { relay: Relay; onPayload(text: string): void } {
  const from = randomBytes(8).toString('hex');
  const listeners: ((message: string) => void)[] = [];
  return {
    relay: {
      publish(message) {
        client.publish(channel, JSON.stringify({ from, message })).catch(() => {});
      },
      subscribe(onMessage) {
        listeners.push(onMessage);
      },
    },
    onPayload(text) {
      const { from: sender, message } = JSON.parse(text) as { from: string; message: string };
      if (sender !== from) for (const listener of listeners) listener(message);
    },
  };
}

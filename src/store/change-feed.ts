import { randomBytes } from 'node:crypto';
import type { Relay } from './relay.js';

/**
 * Notices of other instances' writes, for a store shared by several (PostgreSQL, Redis). `onState(false)`
 * says notices may be missed from now on (the channel dropped): whatever was kept may be stale.
 * `onState(true)` says the channel listens again.
 */
export type ChangeFeed<C> = {
  subscribe(onChange: (change: C) => void, onState: (listening: boolean) => void): void;
};

/** A write's notice: the change, and which engine instance wrote it (`from`). */
export const changeNotice = (from: string, change: object): string => JSON.stringify({ from, ...change });

/** The change a notice's fields name, or undefined for one that is not a change of this channel's. */
export type ChangeReader<C> = (fields: Record<string, unknown>) => C | undefined;

/** The change a notice names, unless it is `self`'s own or not one of ours. */
function parseNotice<C>(payload: string, self: string, read: ChangeReader<C>): C | undefined {
  let notice: unknown;
  try {
    notice = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof notice !== 'object' || notice === null) return undefined;
  const fields = notice as Record<string, unknown>;
  if (typeof fields.from !== 'string' || fields.from === self) return undefined;
  return read(fields);
}

/**
 * Other instances' writes, from the payloads of their notices (fed by the engine's listener:
 * postgres/feeds.ts, redis/feeds.ts). A subscriber that comes while the channel is down hears
 * onState(false) at once.
 */
export function changeFeed<C>(self: string, read: ChangeReader<C>) {
  type Subscriber = Parameters<ChangeFeed<C>['subscribe']>;
  const subscribers: Subscriber[] = [];
  let listening = true;
  return {
    feed: {
      subscribe(onChange, onState) {
        subscribers.push([onChange, onState]);
        if (!listening) onState(false);
      },
    } satisfies ChangeFeed<C>,
    onPayload(payload: string) {
      const change = parseNotice(payload, self, read);
      if (change) for (const [onChange] of subscribers) onChange(change);
    },
    onState(state: boolean) {
      listening = state;
      for (const [, onState] of subscribers) onState(state);
    },
  };
}

/** What an engine on a shared store hears the other instances by (postgres/feeds.ts, redis/feeds.ts). */
export type Feeds<C> = { changes: ChangeFeed<C>; relay: Relay; close(): Promise<void> };

/**
 * An engine's feeds, opened by `open` as a new instance id, with `notice`, which makes the payload of
 * a write's notice (changeNotice) as that instance. `closeStore` closes the engine's own connection:
 * if `open` fails, and on close after the feeds.
 */
export async function openEngineFeeds<C extends object>(
  closeStore: () => Promise<void>,
  open: (self: string) => Promise<Feeds<C>>,
): Promise<Feeds<C> & { notice(change: C): string }> {
  const self = randomBytes(8).toString('hex');
  let feeds: Feeds<C>;
  try {
    feeds = await open(self);
  } catch (err) {
    await closeStore();
    throw err;
  }
  return {
    ...feeds,
    notice: (change) => changeNotice(self, change),
    async close() {
      try {
        await feeds.close();
      } finally {
        await closeStore();
      }
    },
  };
}

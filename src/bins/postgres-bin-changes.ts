import { listenForNotices } from '../store/postgres-notices.js';
import type { Change, ChangeFeed } from './bin-engine.js';

/** The channel every instance on a database notifies its bin writes on. */
export const BIN_CHANNEL = 'snippetkit_bins';

/** A write's notice: the change, and which engine instance wrote it (`from`). */
export const binNotice = (from: string, change: Change): string => JSON.stringify({ from, ...change });

/** The change a notice names, unless it is `self`'s own or not one of ours. */
function parseNotice(payload: string, self: string): Change | undefined {
  let notice: unknown;
  try {
    notice = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof notice !== 'object' || notice === null) return undefined;
  const { from, bin, rev, template } = notice as Record<string, unknown>;
  if (typeof from !== 'string' || from === self) return undefined;
  if (template === true) return { template: true };
  if (typeof bin !== 'string') return undefined;
  return typeof rev === 'number' ? { bin, rev } : { bin };
}

/**
 * Other instances' bin writes, from a LISTEN of its own (postgres-notices.ts); resolves once it
 * listens. A subscriber that comes while the channel is down hears onState(false) at once.
 */
export async function openBinChanges(url: string, self: string): Promise<ChangeFeed & { close(): Promise<void> }> {
  type Subscriber = Parameters<ChangeFeed['subscribe']>;
  const subscribers: Subscriber[] = [];
  let listening = true;
  const listener = await listenForNotices({
    url,
    channel: BIN_CHANNEL,
    onPayload(payload) {
      const change = parseNotice(payload, self);
      if (change) for (const [onChange] of subscribers) onChange(change);
    },
    onState(state) {
      listening = state;
      for (const [, onState] of subscribers) onState(state);
    },
  });
  return {
    subscribe(onChange, onState) {
      subscribers.push([onChange, onState]);
      if (!listening) onState(false);
    },
    close: () => listener.close(),
  };
}

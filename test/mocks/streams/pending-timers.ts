import { createHook } from 'node:async_hooks';

/**
 * The timers set from now on by code whose stack names `from` (a path part: `streams/events`), while
 * they are pending: a test checks each is cleared once its connection ends. stop() ends the watch.
 */
export function pendingTimers(from: string): { pending: Set<number>; stop(): void } {
  const pending = new Set<number>();
  const hook = createHook({
    init(id, type) {
      if (type === 'Timeout' && new Error().stack!.includes(from)) pending.add(id);
    },
    destroy: (id) => pending.delete(id),
  }).enable();
  return { pending, stop: () => hook.disable() };
}

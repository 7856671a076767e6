import type { ChangeFeed } from '../../src/store/change-feed.js';

/** What a subscriber to an engine's change feed hears, with a promise for the moment it has heard enough. */
export function listen<C>(engine: { changes?: ChangeFeed<C> }) {
  const changes: C[] = [];
  const states: boolean[] = [];
  let wake = () => {};
  engine.changes!.subscribe(
    (change) => (changes.push(change), wake()),
    (state) => (states.push(state), wake()),
  );
  const until = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      wake = () => done() && resolve();
      wake();
    });
  return { changes, states, until };
}

import type { BinStore } from './store.js';

/** Rounds of deleting what is there: saves that land meanwhile are deleted too, but not forever. */
const ROUNDS = 3;

/**
 * Deletes every revision of `bin`, oldest first and the latest last, each through `store.remove`
 * (one atomic write each, its caches and notices as for any delete). Not one transaction: if it stops
 * half-way, the bin keeps its newest revisions, still shown and listed as before, and deleting again
 * finishes. The head stays (at latest 0), so a later save to the id never reuses a revision number.
 * Resolves with how many revisions went and the highest of them; undefined when the bin had none.
 */
export async function removeBin(store: BinStore, bin: string): Promise<{ bin: string; rev: number; count: number } | undefined> {
  let count = 0;
  let highest = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const revisions = await store.revisions(bin); // newest first
    if (revisions.length === 0) break;
    for (const { rev } of revisions.reverse()) {
      const removed = await store.remove(bin, rev);
      if (!removed) continue; // another delete took it first
      count++;
      highest = Math.max(highest, removed.rev);
    }
  }
  return count === 0 ? undefined : { bin, rev: highest, count };
}

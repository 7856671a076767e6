/**
 * Waiting work kept per client and taken round-robin: one client's flood waits behind itself, and
 * anyone else's next item is at most one turn away. A Map keeps its keys in insertion order, so
 * moving a client to the back after its turn is a delete and a set.
 */
export type FairQueue<T> = {
  /** Items waiting, all clients together. */
  readonly size: number;
  /** Items `client` has waiting. */
  waiting(client: string): number;
  push(client: string, item: T): void;
  /** The next client's oldest item. */
  shift(): T | undefined;
  /** Empties the queue, returning every item. */
  drain(): T[];
};

export function createFairQueue<T>(): FairQueue<T> {
  const lines = new Map<string, T[]>();
  let size = 0;
  return {
    get size() {
      return size;
    },
    waiting: (client) => lines.get(client)?.length ?? 0,
    push(client, item) {
      const line = lines.get(client);
      if (line) line.push(item);
      else lines.set(client, [item]);
      size++;
    },
    shift() {
      const next = lines.entries().next();
      if (next.done) return undefined;
      const [client, line] = next.value;
      const item = line.shift()!;
      lines.delete(client);
      if (line.length > 0) lines.set(client, line);
      size--;
      return item;
    },
    drain() {
      const items = [...lines.values()].flat();
      lines.clear();
      size = 0;
      return items;
    },
  };
}

/**
 * Runs tasks one after another per key (a bin, an endpoint name) and side by side across keys, so
 * a read-then-write on one key is never interleaved with another. A failed task does not stop the
 * next; a key's entry goes once its queue drains, so the map holds only keys with work pending.
 */
export type KeyQueue = {
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  /** True while a task for `key` is waiting or running. */
  busy(key: string): boolean;
};

export function createKeyQueue(): KeyQueue {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(key, task) {
      // Tails never reject, so the task runs whatever the previous one did.
      const run = (tails.get(key) ?? Promise.resolve()).then(task);
      const tail = run.catch(() => {});
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return run;
    },
    busy: (key) => tails.has(key),
  };
}

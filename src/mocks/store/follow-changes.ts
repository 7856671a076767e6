import type { KeyQueue } from '../../store/key-queue.js';
import { retrying } from '../../store/retry.js';
import type { Logger } from '../../server/logger.js';
import type { Collections } from '../collections/state.js';
import type { MockEngine } from '../engines/engine.js';
import type { StoredMock } from '../record/record.js';
import type { RouteTable } from './route-table.js';
import type { StatsJournal } from '../engines/stats-journal.js';
import type { Endpoint } from './endpoint.js';

export type FollowedParts = {
  endpoints: Map<string, Endpoint>;
  routes: RouteTable<Endpoint>;
  /** The store's per-name queue: a followed change waits for this instance's own write to the name. */
  queue: KeyQueue;
  journal: StatsJournal;
  collections: Collections;
  logger: Logger;
  toEndpoint(record: StoredMock, stats: Endpoint['stats']): Endpoint;
  patternOf(record: StoredMock): string;
};

/**
 * On a store several instances share, keeps this one's endpoints as the others write them: a notice
 * names a record, which is read again and put in place (or taken out); a collection's notice drops
 * the state kept in memory. When the notice channel comes back after a drop, every record is read
 * again, since notices may have been missed, and so are the counters and logs (scenario states follow on
 * their own: scenarios.ts); a read the store does not
 * answer yet (its connections come back one by one) is tried again. Endpoints from this instance's own
 * files (--dir) are its own and stay as they are. The store tells it of this instance's own writes
 * (`wrote`), which no notice announces.
 */
export function followChanges(engine: MockEngine, parts: FollowedParts): { wrote(name: string): void } {
  const { endpoints, routes, queue, journal, collections, logger, toEndpoint, patternOf } = parts;

  // A read of every record again: one at a time, and one more after it if asked for meanwhile.
  let listening = true;
  let reading: Promise<void> | undefined;
  let again = false;
  // Names written while it reads, and when: its copy of them may be older than what a notice's own
  // read (or this instance's write) puts in place, so it must not replace that.
  let writes = 0;
  const writtenAt = new Map<string, number>();
  const written = (name: string) => {
    if (reading) writtenAt.set(name, ++writes);
  };
  const writtenSince = (name: string, started: number) => (writtenAt.get(name) ?? 0) > started;

  const apply = (name: string, record: StoredMock | undefined) => {
    const existing = endpoints.get(name);
    if (existing?.source) return;
    if (!record) {
      if (!existing) return;
      endpoints.delete(name);
      routes.remove(name);
      journal.discard(existing.stats); // the instance that deleted it forgot its counters in the store
      return;
    }
    // Two writes can share a millisecond, so `updated` alone cannot tell a record is unchanged.
    if (existing && JSON.stringify(existing.record) === JSON.stringify(record)) return;
    const endpoint = toEndpoint(record, existing?.stats ?? journal.statsFor(name));
    endpoints.set(name, endpoint);
    routes.set(name, patternOf(record), record.methods, endpoint);
  };

  const follow = (name: string) => {
    written(name);
    return queue.run(name, async () => apply(name, await engine.endpoints.get(name))).catch((err: unknown) => {
      // The store's connections are coming back after a cut (the channel may be back before the client
      // that reads): what the notice named is read with everything else, once the store answers.
      logger.error(`cannot read endpoint '${name}' another instance changed (reading all again): ${(err as Error).message}`);
      readAll();
    });
  };

  const readOnce = async () => {
    const started = writes;
    const records = new Map((await engine.endpoints.all()).map((record) => [record.name, record]));
    const put = (name: string, record: StoredMock | undefined) =>
      queue.run(name, async () => {
        if (!writtenSince(name, started)) apply(name, record);
      });
    for (const name of endpoints.keys()) if (!records.has(name)) await put(name, undefined);
    for (const [name, record] of records) await put(name, record);
    collections.forget();
    // Other instances' requests relayed while the channel was down are lost: the store counted them.
    await journal.reload([...endpoints].map(([name, endpoint]) => [name, endpoint.stats]));
  };

  // Reads every record again until the store answers (retrying), while the channel listens.
  const failed = (err: unknown) =>
    logger.error(`cannot read the endpoints again after the store came back (retrying): ${(err as Error).message}`);
  const readAll = () => {
    if (reading) {
      again = true;
      return;
    }
    reading = (async () => {
      do {
        again = false;
      } while ((await retrying(readOnce, () => listening, failed)) && again);
    })().finally(() => {
      reading = undefined;
      writtenAt.clear();
    });
  };

  engine.changes?.subscribe(
    (change) => {
      if ('endpoint' in change) void follow(change.endpoint);
      else if ('collection' in change) collections.forget(change.collection);
    },
    (now) => {
      listening = now;
      if (now) readAll();
    },
  );
  return { wrote: written };
}

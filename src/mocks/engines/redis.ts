import { openRedisClient, unavailableOnFailure } from '../../store/redis/client.js';
import { openRedisEngine } from '../../store/redis/feeds.js';
import { schemaScripts } from '../../store/redis/schema-part.js';
import type { Relay } from '../../store/relay.js';
import { withoutPassword } from '../../store/store-url.js';
import { readMockChange } from './changes.js';
import type { EndpointSave, MockChange, MockEngine, SavedEndpoint } from './engine.js';
import { mockScripts } from './redis-scripts.js';
import type { StoredMock } from '../record/record.js';

/*
 * Key layout, under the prefix P (default `snippetkit:`, the bins' too: the mocks keep to `P mocks:`;
 * names follow the last `:` of a key, so they may hold any character):
 *   P schema                    hash: part -> version (`mocks` 1, beside the bins' `bins`)
 *   P mocks:endpoints           hash: name -> the record's JSON (../record/record.ts StoredMock), as stored
 *   P mocks:collection:<name>   hash: seed, value, version (engine.ts SavedCollection)
 *   P mocks:counted             set: the endpoints that have counters
 *   P mocks:counters:<name>     hash: hits, lastCall (absent: none), sequence
 *   P mocks:scenarios           hash: scenario name -> state (none: at `start`)
 *   P mocks:log:<name>          sorted set: entries as `<seq> <JSON>`, scored by seq (the number keeps
 *                               equal entries apart)
 *   P mocks:changes             channel: {from: instance id, ...MockChange} (changeNotice), published by the writing script
 *   P mocks:live                channel: the relay (relay.ts)
 */
const SCHEMA_VERSION = 1;
/** Endpoints a load reads per round trip (SSCAN/HSCAN batches, each endpoint's stats one script). */
const SCAN_BATCH = 500;

/** The mocks on Redis (one server, or one shared by several snippetkit instances). */
export async function openRedisMocks(url: string, options: { prefix?: string } = {}): Promise<MockEngine & { relay: Relay }> {
  const prefix = options.prefix ?? 'snippetkit:';
  const where = withoutPassword(url);
  const base = `${prefix}mocks:`;
  const key = {
    schema: `${prefix}schema`,
    endpoints: `${base}endpoints`,
    collection: (name: string) => `${base}collection:${name}`,
    counted: `${base}counted`,
    counters: `${base}counters:`,
    log: `${base}log:`,
    scenarios: `${base}scenarios`,
  };
  const channel = `${base}changes`;
  const client = await openRedisClient(url, { ...mockScripts, ...schemaScripts });
  const { notice, ...feeds } = await openRedisEngine<MockChange>(url, client, {
    schema: { key: key.schema, part: 'mocks', version: SCHEMA_VERSION, what: 'the mocks', where, prefix },
    changes: { channel, read: readMockChange },
    live: { channel: `${base}live` },
  });

  const guarded = unavailableOnFailure;
  const version = String(SCHEMA_VERSION);
  const record = (text: string) => JSON.parse(text) as StoredMock;
  return {
    where,
    endpoints: {
      all: () =>
        guarded(async () => {
          // HSCAN in batches (never one HGETALL of every record): Redis answers others between them.
          // A field may come twice while the hash grows: the map keeps one.
          const records = new Map<string, StoredMock>();
          for await (const batch of client.hScanIterator(key.endpoints, { COUNT: SCAN_BATCH })) {
            for (const { field, value } of batch) records.set(field, record(value));
          }
          return [...records.values()];
        }),
      get: (name) =>
        guarded(async () => {
          const text = await client.hGet(key.endpoints, name);
          return text == null ? undefined : record(text);
        }),
      put: (r) =>
        guarded(async () => {
          await client.mocksPutEndpoint(
            [key.endpoints, key.schema],
            [r.name, JSON.stringify(r), channel, notice({ endpoint: r.name }), version],
          );
        }),
      delete: (name) =>
        guarded(
          async () =>
            (await client.mocksDeleteEndpoint([key.endpoints], [name, channel, notice({ endpoint: name })])) === 1,
        ),
    },
    collections: {
      load: (name) =>
        guarded(async () => {
          const [seed, value, saves] = await client.hmGet(key.collection(name), ['seed', 'value', 'version']);
          return seed == null || value == null ? undefined : { seed, value, version: Number(saves ?? 0) };
        }),
      save: (name, saved, expected) =>
        guarded(async () => {
          if (!Number.isSafeInteger(expected) || expected < 0) throw new TypeError(`a version is a whole number, not ${expected}`);
          const landed = await client.mocksSaveCollection(
            [key.collection(name), key.schema],
            [saved.seed, saved.value, channel, notice({ collection: name }), version, String(expected)],
          );
          return landed === 1;
        }),
      drop: (name) =>
        guarded(async () => {
          await client.mocksDropCollection([key.collection(name)], [channel, notice({ collection: name })]);
        }),
    },
    stats: {
      load: (logSize) =>
        guarded(async () => {
          const saved = new Map<string, SavedEndpoint>();
          for await (const names of client.sScanIterator(key.counted, { COUNT: SCAN_BATCH })) {
            const replies = await Promise.all(
              names.map((name) => client.mocksLoadStats([key.counters + name, key.log + name], [String(logSize)])),
            );
            names.forEach((name, i) => saved.set(name, toSaved(replies[i] as StatsReply)));
          }
          return saved;
        }),
      save: (batch) =>
        guarded(async () => {
          if (batch.length === 0) return;
          await client.mocksSaveStats([key.counted, key.schema], [key.counters, key.log, version, ...batch.flatMap(saveArgs)]);
        }),
      clearLog: (name) =>
        guarded(async () => {
          await client.del(key.log + name);
        }),
      forget: (names) =>
        guarded(async () => {
          if (names.length > 0) await client.mocksForget([key.counted], [key.counters, key.log, ...names]);
        }),
    },
    scenarios: {
      all: () =>
        guarded(async () => {
          // In batches, as the records are read: Redis answers others between them.
          const states = new Map<string, string>();
          for await (const batch of client.hScanIterator(key.scenarios, { COUNT: SCAN_BATCH })) {
            for (const { field, value } of batch) states.set(field, value);
          }
          return states;
        }),
      set: (states) =>
        guarded(async () => {
          if (states.size === 0) return;
          const pairs = [...states].flat();
          await client.mocksSetScenarios([key.scenarios, key.schema], [channel, notice({ scenarios: true }), version, ...pairs]);
        }),
      clear: () =>
        guarded(async () => {
          await client.mocksClearScenarios([key.scenarios], [channel, notice({ scenarios: true })]);
        }),
    },
    changes: feeds.changes,
    relay: feeds.relay,
    close: feeds.close,
  };
}

/**
 * One endpoint's part of the save script's arguments (redis-scripts.ts). Checked here, before
 * the script runs, since a script that fails part-way keeps what it wrote: a bad item fails the batch whole.
 */
function saveArgs(save: EndpointSave): string[] {
  const { name, hits, lastCall, sequence, entries, skipped, keep } = save;
  const counts = { hits, sequence, skipped, keep };
  if (typeof name !== 'string') throw new TypeError(`a stats save needs an endpoint name, not ${String(name)}`);
  for (const [field, value] of Object.entries(counts)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${field} of ${name} must be a whole number, not ${value}`);
  }
  if (lastCall !== null && typeof lastCall !== 'string') throw new TypeError(`lastCall of ${name} must be a time or null`);
  return [
    name,
    String(hits),
    lastCall ?? '',
    String(sequence),
    String(skipped),
    String(keep),
    String(entries.length),
    ...entries.map((entry) => JSON.stringify(entry)),
  ];
}

type StatsReply = [string, string, string, string[]];

function toSaved([hits, lastCall, sequence, members]: StatsReply): SavedEndpoint {
  return {
    hits: Number(hits),
    lastCall: lastCall === '' ? null : lastCall,
    sequence: Number(sequence),
    entries: members.map((member) => {
      const space = member.indexOf(' ');
      return { seq: Number(member.slice(0, space)), entry: member.slice(space + 1) };
    }),
  };
}

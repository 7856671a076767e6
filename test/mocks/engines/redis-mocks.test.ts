import { createClient } from '@redis/client';
import { expect } from 'chai';
import { openRedisBins } from '../../../src/bins/engines/redis.js';
import type { EndpointSave, MockChange, MockEngine } from '../../../src/mocks/engines/engine.js';
import { openRedisMocks } from '../../../src/mocks/engines/redis.js';
import type { LoggedRequest } from '../../../src/mocks/log/request-log.js';
import { DataFileError } from '../../../src/store/data-file.js';
import type { Relay } from '../../../src/store/relay.js';
import { StoreUnavailable } from '../../../src/store/unavailable.js';
import { clientError } from '../../../src/http/errors.js';
import { loggedRequest, storedMock } from '../../helpers/mock-records.js';
import { closedAfterEach } from '../../helpers/per-test.js';
import { freshRedisPrefix, ownServerPerTest, sharedRedis, startRedis } from '../../helpers/services.js';
import { until } from '../../helpers/until.js';

// What the Redis engine does beyond the contract (test/store/mock-engine-contract.test.ts).

const at = '2026-01-01T00:00:00.000Z';
const save = (name: string, fields: Partial<EndpointSave> = {}): EndpointSave => ({
  name,
  hits: 1,
  lastCall: at,
  sequence: 0,
  entries: [],
  skipped: 0,
  keep: 100,
  ...fields,
});
/** The stored fields of a hash, read with a client of the test's own. */
async function hash(url: string, key: string): Promise<Record<string, string>> {
  const client = createClient({ url });
  await client.connect();
  try {
    return await client.hGetAll(key);
  } finally {
    client.destroy();
  }
}
/** What `work` fails with (undefined if it does not). */
const failure = (work: () => Promise<unknown>) => work().then(() => undefined, (err: unknown) => err);

describe('the Redis mock engine', function () {
  this.timeout(60_000);
  const open = closedAfterEach((url: string, prefix: string) => openRedisMocks(url, { prefix }));

  describe('on the shared server', () => {
    const openBins = closedAfterEach((url: string, prefix: string) => openRedisBins(url, { prefix }));
    let url: string;
    let prefix: string;
    beforeEach(async () => {
      url = await sharedRedis();
      prefix = freshRedisPrefix();
    });

    it('keeps log entries exactly as sent, equal ones apart', async () => {
      const engine = await open(url, prefix);
      const odd = { ...loggedRequest('/grüße?q=🚀'), body: 'line\n"quoted" \\ ✓' };
      await engine.stats.save([save('a', { entries: [odd, odd, loggedRequest('/same'), loggedRequest('/same')] })]);
      const { entries } = (await engine.stats.load(100)).get('a')!;
      expect(entries.map((e) => e.seq)).to.deep.equal([1, 2, 3, 4]);
      expect(entries.map((e) => JSON.parse(e.entry) as LoggedRequest)).to.deep.equal([odd, odd, loggedRequest('/same'), loggedRequest('/same')]);
    });

    it('writes none of a batch when a key of it holds something else', async () => {
      const engine = await open(url, prefix);
      const client = createClient({ url });
      await client.connect();
      try {
        await client.set(`${prefix}mocks:log:b`, 'not ours');
      } finally {
        client.destroy();
      }
      const refused = await failure(() =>
        engine.stats.save([save('a', { entries: [loggedRequest('/a')] }), save('b', { entries: [loggedRequest('/b')] })]),
      );
      expect((refused as Error).message).to.match(/^WRONGTYPE /);
      expect((await engine.stats.load(100)).size).to.equal(0);
    });

    it('reads every record and every endpoint\'s stats past one scan batch', async () => {
      const engine = await open(url, prefix);
      const names = Array.from({ length: 1_234 }, (_, i) => `e${i}`);
      await Promise.all(names.map((name) => engine.endpoints.put(storedMock(name))));
      await engine.stats.save(names.map((name) => save(name, { entries: [loggedRequest(`/${name}`)] })));
      const other = await open(url, prefix);
      const records = await other.endpoints.all();
      const stats = await other.stats.load(100);
      expect(records.map((r) => r.name).sort()).to.deep.equal([...names].sort());
      expect([stats.size, stats.get('e1000')?.hits, stats.get('e1000')?.entries.length]).to.deep.equal([1_234, 1, 1]);
    });

    it('relays messages to the other instances, not the sender', async () => {
      const [a, b] = [await open(url, prefix), await open(url, prefix)];
      const got = { a: [] as string[], b: [] as string[] };
      a.relay.subscribe((message) => got.a.push(message));
      b.relay.subscribe((message) => got.b.push(message));
      a.relay.publish('from a');
      await until(() => got.b.length > 0);
      b.relay.publish('from b');
      // Published after A's own, on one channel: once A has B's message, its own would have come before.
      await until(() => got.a.length > 0);
      expect(got).to.deep.equal({ a: ['from b'], b: ['from a'] });
    });

    it('shares a prefix with the bins: neither reads, counts or hears the other\'s keys', async () => {
      const bins = await openBins(url, prefix);
      const [mocks, otherMocks] = [await open(url, prefix), await open(url, prefix)];
      const heard: MockChange[] = [];
      mocks.changes!.subscribe((change) => heard.push(change), () => {});
      const revision = { html: 'x', javascript: '', css: '', settings: {}, created: at };
      const head = { latest: 1, next: 2, created: at, updated: at, summary: 'x', folded: 'x' };
      expect(await bins.save('abc', revision, head, undefined)).to.equal(true);
      await bins.template.set({ html: '', javascript: '', css: '', settings: {}, updated: at });
      await otherMocks.endpoints.put(storedMock('abc'));
      await otherMocks.collections.save('abc', { seed: 's', value: '[]' }, 0);
      await otherMocks.stats.save([save('abc', { entries: [loggedRequest('/abc')] })]);
      // One channel each: had the bins' notices reached the mocks, they would have come first.
      await until(() => heard.length === 2);
      expect(heard).to.deep.equal([{ endpoint: 'abc' }, { collection: 'abc' }]);
      const everything = await bins.everything();
      expect([[...everything.heads.keys()], (await bins.page({ offset: 0, limit: 10 })).total]).to.deep.equal([['abc'], 1]);
      expect([(await mocks.endpoints.all()).map((r) => r.name), [...(await mocks.stats.load(100)).keys()]]).to.deep.equal([
        ['abc'],
        ['abc'],
      ]);
      expect(await hash(url, `${prefix}schema`)).to.deep.equal({ bins: '1', mocks: '1' });
    });

    it('refuses a store a newer snippetkit wrote, naming it', async () => {
      const client = createClient({ url });
      await client.connect();
      try {
        await client.hSet(`${prefix}schema`, 'mocks', '2');
      } finally {
        client.destroy();
      }
      const refused = await failure(() => open(url, prefix));
      expect(refused).to.be.instanceOf(DataFileError);
      expect((refused as Error).message).to.equal(
        `the mocks in Redis at ${url} (prefix ${prefix}) were written by a newer snippetkit (schema 2); upgrade it`,
      );
      // The bins' part is theirs: a newer mocks part does not stop them.
      await openBins(url, prefix);
    });

    it('names the Redis without its password', async () => {
      const engine = await open(url.replace('redis://', 'redis://default:secret@'), prefix);
      expect(engine.where).to.equal(url.replace('redis://', 'redis://default@'));
    });
  });

  describe('on a server of its own', () => {
    const own = ownServerPerTest(startRedis, (url) => openRedisMocks(url, { prefix: 'x:' }));

    it('answers StoreUnavailable at once while Redis is down, and serves again once it is back', async () => {
      const engine: MockEngine & { relay: Relay } = await own.open();
      const states: boolean[] = [];
      engine.changes!.subscribe(() => {}, (listening) => states.push(listening));
      await own.server.stop();
      const started = Date.now();
      const attempts = [
        () => engine.endpoints.all(),
        () => engine.endpoints.get('a'),
        () => engine.endpoints.put(storedMock('a')),
        () => engine.endpoints.delete('a'),
        () => engine.collections.load('a'),
        () => engine.collections.save('a', { seed: 's', value: '[]' }, 0),
        () => engine.stats.load(100),
        () => engine.stats.save([save('a')]),
        () => engine.stats.clearLog('a'),
        () => engine.stats.forget(['a']),
      ];
      for (const attempt of attempts) {
        const refused = await failure(attempt);
        expect(refused).to.be.instanceOf(StoreUnavailable);
        expect(clientError(refused)?.status).to.equal(503);
      }
      expect(Date.now() - started).to.be.below(2_500);
      await own.server.start();
      // The same engine, reconnected (100 ms doubling to 2 s): the restarted Redis is empty, its
      // script cache too; the first write records the schema version again.
      await until(async () => {
        try {
          await engine.stats.save([save('a', { hits: 2, entries: [loggedRequest('/after')] })]);
          return true;
        } catch (err) {
          if (err instanceof StoreUnavailable) return false;
          throw err;
        }
      }, 15_000);
      await engine.endpoints.put(storedMock('a'));
      const saved = (await engine.stats.load(100)).get('a');
      expect([saved?.hits, saved?.entries.map((e) => e.seq), (await engine.endpoints.get('a'))?.name]).to.deep.equal([2, [1], 'a']);
      expect(await hash(own.server.url, 'x:schema')).to.deep.equal({ mocks: '1' });
      await until(() => states.at(-1) === true, 15_000);
      expect(states).to.deep.equal([false, true]);
    });

    it('refuses to open when Redis cannot be reached, naming the URL without its password', async () => {
      await own.server.stop();
      const refused = await failure(() => openRedisMocks(own.server.url.replace('redis://', 'redis://someone:secret@')));
      expect(refused).to.be.instanceOf(DataFileError);
      expect((refused as Error).message).to.match(new RegExp(`^cannot connect to Redis at redis://someone@127\\.0\\.0\\.1:${own.server.port}: ECONNREFUSED`));
    });
  });
});

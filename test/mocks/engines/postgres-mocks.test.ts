import { expect } from 'chai';
import pg from 'pg';
import { openPostgresBins } from '../../../src/bins/engines/postgres.js';
import type { EndpointSave } from '../../../src/mocks/engines/engine.js';
import { openPostgresMocks } from '../../../src/mocks/engines/postgres.js';
import type { StoredMock } from '../../../src/mocks/record/record.js';
import type { LoggedRequest } from '../../../src/mocks/log/request-log.js';
import { DataFileError } from '../../../src/store/data-file.js';
import { StoreUnavailable } from '../../../src/store/unavailable.js';
import { listen } from '../../helpers/heard-changes.js';
import { loggedRequest, storedMock } from '../../helpers/mock-records.js';
import { closedAfterEach } from '../../helpers/per-test.js';
import { freshDatabase, ownServerPerTest, startPostgres } from '../../helpers/services.js';

// What the engine contract (test/store/mock-engine-contract.test.ts) does not cover: opening,
// schema versions, many instances saving at once, the relay, a server that goes away.

type PostgresMocks = Awaited<ReturnType<typeof openPostgresMocks>>;

const record = (name: string): StoredMock => storedMock(name, '{"b":1,"a":"ключ 🎉"}');
const save = (name: string, url: string): EndpointSave => ({
  name,
  hits: 1,
  lastCall: '2026-01-01T00:00:00.000Z',
  sequence: 0,
  entries: [loggedRequest(url)],
  skipped: 0,
  keep: 1000,
});

/** The rejection of `attempt`, or undefined if it resolved. */
const failure = (attempt: Promise<unknown>) =>
  attempt.then(
    () => undefined,
    (err: unknown) => err,
  );

describe('the PostgreSQL mock engine', function () {
  this.timeout(30_000);
  const open = closedAfterEach(openPostgresMocks);

  describe('opening', () => {
    const openBins = closedAfterEach(openPostgresBins);

    it('opens an empty database from two mock instances and a bin instance at once', async () => {
      const url = await freshDatabase();
      const results = await Promise.allSettled([open(url), open(url), openBins(url)]);
      expect(results.map((result) => result.status)).to.deep.equal(['fulfilled', 'fulfilled', 'fulfilled']);
      const [a, b] = open.opened;
      await a!.endpoints.put(record('abc'));
      expect(await b!.endpoints.get('abc')).to.deep.equal(record('abc'));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query('SELECT part, version FROM snippetkit_schema ORDER BY part');
      await client.end();
      expect(rows).to.deep.equal([{ part: 'bins', version: 1 }, { part: 'mocks', version: 2 }]);
    });

    it('refuses a database whose mocks a newer version wrote', async () => {
      const url = await freshDatabase();
      await (await openPostgresMocks(url)).close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query("UPDATE snippetkit_schema SET version = 3 WHERE part = 'mocks'");
      await client.end();
      const refused = await failure(openPostgresMocks(url));
      expect(refused).to.be.instanceOf(DataFileError);
      expect((refused as Error).message).to.match(
        /^the mocks in the database postgres:\/\/\S+ were written by a newer snippetkit \(schema 3\); upgrade it$/,
      );
    });

    it('brings a version 1 database forward: its records stay, and scenario states get their table', async () => {
      const url = await freshDatabase();
      const first = await openPostgresMocks(url);
      await first.endpoints.put(record('kept'));
      await first.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query('DROP TABLE mock_scenarios');
      await client.query("UPDATE snippetkit_schema SET version = 1 WHERE part = 'mocks'");
      await client.end();
      const engine = await open(url);
      await engine.scenarios.set(new Map([['checkout', 'paid']]));
      expect([await engine.endpoints.get('kept'), await engine.scenarios.all()]).to.deep.equal([
        record('kept'),
        new Map([['checkout', 'paid']]),
      ]);
    });

    it('says where it is without the password', async () => {
      const engine = await open(await freshDatabase());
      expect(engine.where).to.match(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/test_\w+$/);
    });
  });

  describe('on one database, two instances', () => {
    let a: PostgresMocks;
    let b: PostgresMocks;
    beforeEach(async () => {
      const url = await freshDatabase();
      [a, b] = [await open(url), await open(url)];
    });

    it('takes 40 batches at once naming two endpoints in opposite orders, and loses no hit and no entry', async () => {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => [
          a.stats.save([save('x', `/a${i}`), save('y', `/a${i}`)]),
          b.stats.save([save('y', `/b${i}`), save('x', `/b${i}`)]),
        ]).flat(),
      );
      const saved = await a.stats.load(1000);
      for (const name of ['x', 'y']) {
        const { hits, entries } = saved.get(name)!;
        const urls = entries.map((e) => (JSON.parse(e.entry) as LoggedRequest).url);
        expect([hits, entries.map((e) => e.seq), new Set(urls).size]).to.deep.equal([
          40,
          Array.from({ length: 40 }, (_, i) => i + 1),
          40,
        ]);
      }
    });

    it('reads log entries back as the exact JSON saved: NUL, a lone surrogate, quotes, backslashes, emoji', async () => {
      const odd = { ...loggedRequest('/"\\\u0000\ud800?🎉'), body: '\u0000\udfff\\"ключ"', headers: { 'x-a': '\t\n' } };
      await a.stats.save([{ ...save('odd "one" 🎉', '/'), entries: [odd, loggedRequest('/2')] }]);
      const saved = (await b.stats.load(10)).get('odd "one" 🎉')!;
      expect(saved.entries.map((e) => e.entry)).to.deep.equal([JSON.stringify(odd), JSON.stringify(loggedRequest('/2'))]);
    });

    it('relays short and long messages to the other instance only, in order', async () => {
      const [heard, own]: string[][] = [[], []];
      let wake = () => {};
      b.relay.subscribe((message) => (heard.push(message), wake()));
      a.relay.subscribe((message) => own.push(message));
      const long = 'x'.repeat(50_000); // past a notice's size: sent through mock_relay
      a.relay.publish('short');
      a.relay.publish(long);
      a.relay.publish('after');
      await new Promise<void>((resolve) => (wake = () => heard.length === 3 && resolve()));
      // B heard A's last message, so A's notices of its own (delivered to both in one order) came before it.
      expect([heard, own]).to.deep.equal([['short', long, 'after'], []]);
    });
  });

  describe('on a server that goes away', () => {
    const own = ownServerPerTest(startPostgres, openPostgresMocks);

    it('answers StoreUnavailable within seconds while the server is down, and serves again once it is back', async () => {
      const engine = await own.open();
      const heard = listen(engine);
      await engine.endpoints.put(record('abc'));
      await engine.stats.save([save('abc', '/1')]);
      await own.server.stop();
      const attempts = [
        () => engine.endpoints.get('abc'),
        () => engine.endpoints.put(record('new')),
        () => engine.collections.save('abc', { seed: 's', value: '[]' }, 0),
        () => engine.stats.save([save('abc', '/2')]),
        () => engine.stats.load(100),
      ];
      for (const attempt of attempts) {
        const started = Date.now();
        expect(await failure(attempt())).to.be.instanceOf(StoreUnavailable);
        expect(Date.now() - started).to.be.below(10_000);
      }
      await own.server.start();
      await engine.stats.save([save('abc', '/3')]);
      const saved = (await engine.stats.load(100)).get('abc')!;
      expect([await engine.endpoints.get('abc'), saved.hits, saved.entries.map((e) => e.seq)]).to.deep.equal([
        record('abc'),
        2,
        [1, 2],
      ]);
      await heard.until(() => heard.states.at(-1) === true);
      expect(heard.states).to.deep.equal([false, true]);
    });

    it('hears the other instance again after its channel dropped', async () => {
      const [a, b] = [await own.open(), await own.open()];
      const heard = listen(b);
      expect(await own.server.disconnectClients()).to.be.greaterThan(0);
      await heard.until(() => heard.states.length >= 2);
      await a.endpoints.put(record('after'));
      await heard.until(() => heard.changes.length > 0);
      expect([heard.states, heard.changes]).to.deep.equal([[false, true], [{ endpoint: 'after' }]]);
    });
  });
});

import { expect } from 'chai';
import { join } from 'node:path';
import { openDataFileDb } from '../../../src/store/sqlite-db.js';
import { inPool } from '../../helpers/pool.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/until.js';
import { readSavedStats } from './saved-stats.js';
import { addEndpoint, startMockServer, type StartOptions, type TestMockServer } from '../server.js';

describe('mock hit counts and request logs across restarts', function () {
  this.timeout(120_000);
  let temp: ReturnType<typeof tempDir>;
  let file: string;
  beforeEach(() => {
    temp = tempDir();
    file = join(temp.dir, 'mocks.sqlite');
  });
  afterEach(() => temp.cleanup());

  /** Runs `act` on a server over the test's file, closing it (which saves what is pending) after. */
  const withServer = async <T>(act: (server: TestMockServer) => Promise<T>, options: StartOptions = {}): Promise<T> => {
    const server = await startMockServer({ file, ...options });
    try {
      return await act(server);
    } finally {
      await server.close();
    }
  };
  const get = async (server: TestMockServer, path: string) => (await server.fetch(path)).json();
  const urls = async (server: TestMockServer, name = 'hook') =>
    (await get(server, `/api/endpoint/${name}/requests`)).requests.map((r: { url: string }) => r.url);

  it('keeps hits, lastCall, the log (newest first, bodies whole) and the sequence position', async () => {
    const before = await withServer(async (server) => {
      await addEndpoint(server, { name: 'hook', data: 1 });
      for (const n of [1, 2, 3]) await server.fetch(`/endpoint/hook?n=${n}`, { method: 'POST', body: `body ${n} ✓` });
      server.store.get('hook')!.stats.sequence = 7;
      return get(server, '/api/endpoint/hook');
    });
    expect(before.hits).to.equal(3);
    await withServer(async (server) => {
      const after = await get(server, '/api/endpoint/hook');
      expect(after.hits).to.equal(3);
      expect(after.lastCall).to.equal(before.lastCall).and.not.equal(null);
      const [listed] = (await get(server, '/api/endpoints')).endpoints;
      expect(listed).to.deep.include({ hits: 3, lastCall: before.lastCall });
      const { requests } = await get(server, '/api/endpoint/hook/requests');
      expect(requests.map((r: { url: string }) => r.url)).to.deep.equal(
        ['/endpoint/hook?n=3', '/endpoint/hook?n=2', '/endpoint/hook?n=1'],
      );
      expect(requests[0]).to.deep.include({ method: 'POST', body: 'body 3 ✓', bodyTruncated: false });
      expect(server.store.get('hook')!.stats.sequence).to.equal(7);
      // Counting goes on from where it was.
      await server.fetch('/endpoint/hook?n=4');
      expect((await get(server, '/api/endpoint/hook')).hits).to.equal(4);
    });
    await withServer(async (server) => {
      expect(await urls(server)).to.have.length(4);
      expect((await urls(server))[0]).to.equal('/endpoint/hook?n=4');
    });
  });

  it('keeps the last --log-size requests, in memory and in the file, also after a restart', async () => {
    const store = { logSize: 3 };
    await withServer(async (server) => {
      await addEndpoint(server, { name: 'hook', data: 1 });
      for (let n = 1; n <= 5; n++) await server.fetch(`/endpoint/hook?n=${n}`);
      expect(await urls(server)).to.deep.equal(['/endpoint/hook?n=5', '/endpoint/hook?n=4', '/endpoint/hook?n=3']);
    }, { store });
    const saved = await readSavedStats(file);
    try {
      expect((await saved.entries('hook')).map((e) => e.seq)).to.deep.equal([5, 4, 3]);
    } finally {
      await saved.close();
    }
    await withServer(async (server) => {
      expect(await urls(server)).to.deep.equal(['/endpoint/hook?n=5', '/endpoint/hook?n=4', '/endpoint/hook?n=3']);
      expect((await get(server, '/api/endpoint/hook')).hits).to.equal(5);
    }, { store });
  });

  it('cuts a saved log to a smaller --log-size at start, in the file too', async () => {
    await withServer(async (server) => {
      await addEndpoint(server, { name: 'hook', data: 1 });
      for (let n = 1; n <= 5; n++) await server.fetch(`/endpoint/hook?n=${n}`);
    });
    await withServer(async (server) => {
      expect(await urls(server)).to.deep.equal(['/endpoint/hook?n=5', '/endpoint/hook?n=4']);
      const saved = await readSavedStats(file);
      try {
        expect((await saved.entries('hook')).map((e) => e.url)).to.deep.equal(await urls(server));
      } finally {
        await saved.close();
      }
    }, { store: { logSize: 2 } });
  });

  it('DELETE /api/endpoint/<name>/requests empties the log for good, keeping hits and lastCall', async () => {
    const lastCall = await withServer(async (server) => {
      await addEndpoint(server, { name: 'hook', data: 1 });
      await addEndpoint(server, { name: 'other', data: 1 });
      for (const name of ['hook', 'hook', 'other']) await server.fetch(`/endpoint/${name}`);
      const saved = await readSavedStats(file);
      try {
        await until(async () => (await saved.entries('hook')).length === 2);
      } finally {
        await saved.close();
      }
      const res = await server.fetch('/api/endpoint/hook/requests', { method: 'DELETE' });
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ success: true, name: 'hook' });
      expect(await urls(server)).to.deep.equal([]);
      const { lastCall } = await get(server, '/api/endpoint/hook');
      expect(Date.parse(lastCall)).to.be.closeTo(Date.now(), 10_000);
      return lastCall;
    });
    await withServer(async (server) => {
      expect(await urls(server)).to.deep.equal([]);
      expect(await urls(server, 'other')).to.deep.equal(['/endpoint/other']);
      expect(await get(server, '/api/endpoint/hook')).to.deep.include({ hits: 2, lastCall });
      await server.fetch('/endpoint/hook?after');
      expect(await urls(server)).to.deep.equal(['/endpoint/hook?after']);
    });
  });

  it('answers DELETE /api/endpoint/nope/requests with 404 naming the endpoint', async () => {
    await withServer(async (server) => {
      const res = await server.fetch('/api/endpoint/nope/requests', { method: 'DELETE' });
      expect(res.status).to.equal(404);
      expect(await res.json()).to.deep.equal({ success: false, message: "no endpoint named 'nope'" });
    });
  });

  it('deletes an endpoint\'s saved log and counters with it; a replace keeps them', async () => {
    await withServer(async (server) => {
      await addEndpoint(server, { name: 'hook', data: 1 });
      await addEndpoint(server, { name: 'kept', data: 1 });
      await server.fetch('/endpoint/hook');
      await server.fetch('/endpoint/kept');
      await server.putJson('/api/endpoint/kept', { data: 2 });
      const saved = await readSavedStats(file);
      try {
        await until(async () => (await saved.entries('hook')).length === 1);
        await server.fetch('/api/endpoint/hook', { method: 'DELETE' });
        expect(await saved.entries('hook')).to.deep.equal([]);
        expect(await saved.stats('hook')).to.equal(undefined);
      } finally {
        await saved.close();
      }
    });
    await withServer(async (server) => {
      await addEndpoint(server, { name: 'hook', data: 1 });
      expect(await get(server, '/api/endpoint/hook')).to.deep.include({ hits: 0, lastCall: null });
      expect(await urls(server)).to.deep.equal([]);
      expect(await urls(server, 'kept')).to.deep.equal(['/endpoint/kept']);
    });
  });

  it('saves within the batch interval while serving, not only at close', async () => {
    await withServer(async (server) => {
      await addEndpoint(server, { name: 'hook', data: 1 });
      const saved = await readSavedStats(file);
      try {
        const answered = Date.now();
        await server.fetch('/endpoint/hook?live');
        await until(async () => (await saved.stats('hook'))?.hits === 1);
        // 200 ms interval; 5x that and more for a loaded machine.
        expect(Date.now() - answered).to.be.below(2000);
        expect(await saved.entries('hook')).to.deep.equal([{ seq: 1, url: '/endpoint/hook?live' }]);
      } finally {
        await saved.close();
      }
    });
  });

  it('logs a failing save and retries it until the file takes it, losing nothing', async () => {
    await withServer(async (server) => {
      await addEndpoint(server, { name: 'hook', data: 1 });
      const other = await openDataFileDb(file, { lock: false });
      try {
        // Another connection makes the log table refuse rows: every save fails until it takes them again.
        await other.query(
          "CREATE TRIGGER refuse BEFORE INSERT ON mock_requests BEGIN SELECT RAISE(ABORT, 'mock_requests refused'); END",
        );
        await server.fetch('/endpoint/hook?1');
        await until(() => server.errors.length > 0);
        await other.query('DROP TRIGGER refuse');
        const saved = await readSavedStats(file);
        try {
          // No request comes to mark the log again: the failed batch itself is retried.
          await until(async () => (await saved.entries('hook')).length === 1);
          await server.fetch('/endpoint/hook?2');
          // Counters are written after the rows they count.
          await until(async () => (await saved.stats('hook'))?.hits === 2);
          expect(await saved.entries('hook')).to.have.length(2);
        } finally {
          await saved.close();
        }
      } finally {
        await other.close();
      }
      expect(server.errors).to.have.length(1);
      expect(server.errors[0]).to.match(/^cannot save request logs to the data file \(retrying\): .*mock_requests/);
    });
  });

  it('refuses a data file whose request-log tables a newer version wrote', async () => {
    await withServer(async () => {});
    const other = await openDataFileDb(file, { lock: false });
    await other.query("UPDATE snippetkit_schema SET version = 2 WHERE part = 'mock-stats'");
    await other.close();
    const opening = await startMockServer({ file }).then(
      (server) => server.close().then(() => 'opened'),
      (err: Error) => `${err.name}: ${err.message}`,
    );
    expect(opening).to.equal(
      `DataFileError: the request logs in the data file ${file} were written by a newer snippetkit ` +
        '(schema 2); upgrade it',
    );
  });

  it('changes nothing in a file it refuses, not even the parts it reads before the refused one', async () => {
    const other = await openDataFileDb(file, { lock: false });
    await other.exec(`CREATE TABLE snippetkit_schema (part TEXT PRIMARY KEY, version INTEGER NOT NULL);
      INSERT INTO snippetkit_schema VALUES ('mock-stats', 2)`);
    await other.close();
    const opening = await startMockServer({ file }).then(
      (server) => server.close().then(() => 'opened'),
      (err: Error) => err.name,
    );
    expect(opening).to.equal('DataFileError');
    const after = await openDataFileDb(file, { lock: false });
    try {
      expect(await after.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")).to.deep.equal([
        { name: 'snippetkit_schema' },
      ]);
    } finally {
      await after.close();
    }
  });

  // 2,000 requests span several save batches; 20,000 took over two minutes on a loaded 2-core machine.
  it('keeps memory and rows at the log size through a flood of 2,000 requests', async () => {
    await withServer(async (server) => {
      await addEndpoint(server, { name: 'flood', data: 1 });
      await inPool(2000, 50, async (i) => {
        const res = await server.fetch(`/endpoint/flood?i=${i}`, { method: 'POST', body: 'x'.repeat(100) });
        await res.arrayBuffer();
      });
      const stats = server.store.get('flood')!.stats;
      expect(stats.hits).to.equal(2000);
      expect(stats.requests.newestFirst()).to.have.length(10);
      const saved = await readSavedStats(file);
      try {
        // A batch writes rows, counters, then prunes: the last batch is done when all three show.
        await until(async () => {
          const entries = await saved.entries('flood');
          return (await saved.stats('flood'))?.hits === 2000 && entries.length === 10 && entries[0]!.seq === 2000;
        });
      } finally {
        await saved.close();
      }
    }, { store: { logSize: 10 } });
  });
});

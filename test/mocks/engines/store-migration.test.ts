import { expect } from 'chai';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteMocks } from '../../../src/mocks/engines/sqlite.js';
import { onFile } from '../../helpers/old-bins-file.js';
import { tempDir } from '../../helpers/temp.js';
import { readSavedStats } from './saved-stats.js';
import { startMockServer, type TestMockServer } from '../server.js';

/**
 * Written by the release that kept endpoint records as Keyv rows (test/fixtures/mocks/README.md): hello
 * (3 calls, pick sequence), greet (replaced, 1 call), users (a collection given Bob), cleared (2 calls,
 * log cleared), gone (deleted).
 */
const FIXTURE = fileURLToPath(new URL('../../fixtures/mocks/keyv-endpoints.sqlite', import.meta.url));

describe('opening a mock data file that keeps endpoints as Keyv rows', () => {
  let temp: ReturnType<typeof tempDir>;
  let file: string;
  let server: TestMockServer;
  beforeEach(async () => {
    temp = tempDir();
    file = join(temp.dir, 'mocks.sqlite');
    copyFileSync(FIXTURE, file);
    server = await startMockServer({ file });
  });
  afterEach(async () => {
    await server.close();
    temp.cleanup();
  });
  const json = async (path: string) => (await server.fetch(path)).json();
  const raw = async (sql: string) => {
    await server.close();
    let rows: unknown[] = [];
    await onFile(file, async (run) => {
      rows = await run(sql);
    });
    return rows;
  };

  it('lists the endpoints it kept, not the deleted one', async () => {
    const { endpoints } = await json('/api/endpoints');
    expect(endpoints.map((e: { name: string }) => e.name)).to.deep.equal(['cleared', 'greet', 'hello', 'users']);
  });

  it('serves each record as it was last saved', async () => {
    const greet = await server.fetch('/endpoint/greet/ann');
    const hello = await server.fetch('/endpoint/hello');
    expect([greet.status, await greet.text(), (await server.fetch('/endpoint/greet/ann', { method: 'POST' })).status])
      .to.deep.equal([202, 'Hello there', 405]);
    // Three calls took turns 1, 2, 1: the fourth takes the second response.
    expect([hello.status, await hello.json(), hello.headers.get('x-mock')]).to.deep.equal([201, 'two', 'yes']);
  });

  it('keeps created and updated times', async () => {
    const greet = await json('/api/endpoint/greet');
    expect(greet.created < greet.updated).to.equal(true);
  });

  it('keeps hits, lastCall and the logs, a cleared log still empty', async () => {
    const hello = await json('/api/endpoint/hello');
    const cleared = await json('/api/endpoint/cleared');
    const { requests } = await json('/api/endpoint/hello/requests');
    expect([hello.hits, cleared.hits, cleared.lastCall === null]).to.deep.equal([3, 2, false]);
    expect(requests.map((r: { url: string; body: string }) => `${r.url} ${r.body}`)).to.deep.equal([
      '/endpoint/hello?a=3 ',
      '/endpoint/hello?a=2 posted',
      '/endpoint/hello?a=1 ',
    ]);
    expect((await json('/api/endpoint/cleared/requests')).requests).to.deep.equal([]);
  });

  it("keeps a collection's live data", async () => {
    expect(await json('/endpoint/users')).to.deep.equal([
      { id: 1, name: 'Ann' },
      { name: 'Bob', id: 2 },
    ]);
  });

  it('numbers new requests on from the saved ones', async () => {
    await server.fetch('/endpoint/hello?a=4');
    await server.close();
    const saved = await readSavedStats(file);
    try {
      expect([(await saved.entries('hello')).map((e) => e.seq), (await saved.stats('hello'))?.hits]).to.deep.equal([
        [4, 3, 2, 1],
        4,
      ]);
    } finally {
      await saved.close();
    }
  });

  it("moves the records out of Keyv's table into the endpoints table, and records the schema", async () => {
    const rows = await raw(`SELECT 'keyv ' || key AS row FROM keyv UNION ALL SELECT 'endpoint ' || name FROM mock_endpoints
      UNION ALL SELECT part || ' ' || version FROM snippetkit_schema ORDER BY 1`);
    expect(rows.map((r) => (r as { row: string }).row)).to.deep.equal([
      'endpoint cleared',
      'endpoint greet',
      'endpoint hello',
      'endpoint users',
      'mock-collections 2',
      'mock-endpoints 1',
      'mock-scenarios 1',
      'mock-stats 1',
    ]);
  });

  it('reads the same after a restart, with nothing left to move', async () => {
    await server.close();
    server = await startMockServer({ file });
    expect([(await json('/api/endpoint/hello')).hits, (await json('/api/endpoints')).endpoints.length]).to.deep.equal([3, 4]);
  });
});

describe('moving mock endpoints out of Keyv rows, when it fails part-way', () => {
  it('leaves the file as it was, and refuses to start', async () => {
    const temp = tempDir();
    try {
      const file = join(temp.dir, 'mocks.sqlite');
      const record = { name: 'good', statusCode: 200, delay: 0, json: '1', created: 'x', updated: 'x' };
      let before: unknown[] = [];
      await onFile(file, async (run) => {
        await run('CREATE TABLE keyv(key VARCHAR(255) PRIMARY KEY, value TEXT )');
        await run('INSERT INTO keyv VALUES (?, ?)', 'mocks:endpoint:good', JSON.stringify({ value: record }));
        // Not JSON: reading it fails the move once its table is made, inside its transaction.
        await run("INSERT INTO keyv VALUES ('mocks:endpoint:bad', 'not json')");
        before = await run('SELECT key, value FROM keyv ORDER BY key');
      });
      const failure = await startMockServer({ file }).then(
        async (server) => server.close(),
        (err: Error) => err.message,
      );
      let after: unknown[] = [];
      let tables: unknown[] = [];
      await onFile(file, async (run) => {
        after = await run('SELECT key, value FROM keyv ORDER BY key');
        tables = await run("SELECT name FROM sqlite_master WHERE name = 'mock_endpoints'");
      });
      expect([failure, after, tables]).to.deep.equal(['SQLITE_ERROR: malformed JSON', before, []]);
    } finally {
      temp.cleanup();
    }
  });
});

describe('a mock data file whose endpoints a newer snippetkit wrote', () => {
  it('is refused, naming the file', async () => {
    const temp = tempDir();
    try {
      const file = join(temp.dir, 'mocks.sqlite');
      await (await startMockServer({ file })).close();
      await onFile(file, (run) => run("UPDATE snippetkit_schema SET version = 2 WHERE part = 'mock-endpoints'").then(() => {}));
      const failure = await startMockServer({ file }).then(
        async (server) => server.close().then(() => 'opened'),
        (err: Error) => `${err.name}: ${err.message}`,
      );
      expect(failure).to.equal(
        `DataFileError: the endpoints in the data file ${file} were written by a newer snippetkit (schema 2); upgrade it`,
      );
    } finally {
      temp.cleanup();
    }
  });
});

describe('a mock data file whose collections an earlier release saved (schema 1, no versions)', () => {
  it('gives each saved state version 1, on which the next save is conditional', async () => {
    const temp = tempDir();
    try {
      const file = join(temp.dir, 'mocks.sqlite');
      await onFile(file, async (run) => {
        await run('CREATE TABLE snippetkit_schema (part TEXT PRIMARY KEY, version INTEGER NOT NULL)');
        await run("INSERT INTO snippetkit_schema VALUES ('mock-collections', 1)");
        await run('CREATE TABLE mock_collections (name TEXT PRIMARY KEY, seed TEXT NOT NULL, value TEXT NOT NULL)');
        await run("INSERT INTO mock_collections VALUES ('posts', 's', '[1]')");
      });
      const engine = await openSqliteMocks(file);
      try {
        const loaded = await engine.collections.load('posts');
        const saves = [
          await engine.collections.save('posts', { seed: 's', value: '[9]' }, 0),
          await engine.collections.save('posts', { seed: 's', value: '[1,2]' }, 1),
        ];
        expect([loaded, saves, await engine.collections.load('posts')]).to.deep.equal([
          { seed: 's', value: '[1]', version: 1 },
          [false, true],
          { seed: 's', value: '[1,2]', version: 2 },
        ]);
      } finally {
        await engine.close();
      }
      let schema: unknown[] = [];
      await onFile(file, async (run) => {
        schema = await run("SELECT version FROM snippetkit_schema WHERE part = 'mock-collections'");
      });
      expect(schema).to.deep.equal([{ version: 2 }]);
    } finally {
      temp.cleanup();
    }
  });
});

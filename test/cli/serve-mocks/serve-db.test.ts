import { expect } from 'chai';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/until.js';
import { MAX_SOURCE_FILE_BYTES } from '../../../src/mocks/sources/read-source.js';
import { jsonServerDb, QUERY_CASES } from '../../mocks/collections/json-server-db.js';

describe('snippetkit serve-mocks --db (a real process)', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess | undefined;
  let db: string;
  const original = `${JSON.stringify(jsonServerDb(), null, 2)}\n`;
  beforeEach(() => {
    temp = tempDir();
    db = join(temp.dir, 'db.json');
    writeFileSync(db, original);
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    temp.cleanup();
  });

  const start = async (extra: string[] = [], env: NodeJS.ProcessEnv = {}) => {
    await server?.stop();
    const data = join(temp.dir, 'mocks.sqlite');
    server = await startServerProcess(['serve-mocks', '--port', '0', '--data', data, ...extra], env);
    return server;
  };
  const get = async (path: string) => (await fetch(`${server!.url}/endpoint/${path}`)).json();
  const post = (path: string, body: unknown) =>
    fetch(`${server!.url}/endpoint/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const titles = async () => ((await get('posts')) as { title: string }[]).map((post) => post.title);

  it("answers json-server's README queries on its database", async () => {
    await start(['--db', db]);
    for (const [path, ids, total] of QUERY_CASES) {
      const res = await fetch(`${server!.url}/endpoint/${path}`);
      const answered = ((await res.json()) as { id: number }[]).map((item) => item.id);
      expect([path, answered, res.headers.get('x-total-count')]).to.deep.equal([
        path,
        ids,
        total === null ? null : String(total),
      ]);
    }
    expect(await get('profile')).to.deep.equal({ name: 'typicode' });
  });

  it('keeps changes across a restart without touching db.json; an edited db.json starts from the file', async () => {
    await start(['--db', db]);
    expect((await post('posts', { title: 'posted' })).status).to.equal(201);
    await start(['--db', db]);
    expect((await titles()).at(-1)).to.equal('posted');
    expect(readFileSync(db, 'utf8')).to.equal(original);

    const edited = jsonServerDb();
    edited.posts = [{ id: 1, title: 'edited' }];
    writeFileSync(db, JSON.stringify(edited));
    await until(async () => (await titles()).join() === 'edited');
    // comments did not change in the file: their live data stays
    expect(await get('comments')).to.have.length(3);
  });

  it('takes the file from SNIPPETKIT_MOCK_DB', async () => {
    await start([], { SNIPPETKIT_MOCK_DB: db });
    expect(await get('profile')).to.deep.equal({ name: 'typicode' });
  });

  it('--write-db writes changes back to db.json, atomically and in key order', async () => {
    await start(['--db', db, '--write-db']);
    await post('posts', { title: 'written' });
    const read = () => JSON.parse(readFileSync(db, 'utf8')) as ReturnType<typeof jsonServerDb>;
    await until(() => read().posts.length === 31);
    expect(read().posts.at(-1)).to.deep.equal({ title: 'written', id: 31 });
    expect(Object.keys(read())).to.deep.equal(['posts', 'comments', 'profile']);
  });

  it('--write-db writes the last change before it stops', async () => {
    await start(['--db', db, '--write-db']);
    await fetch(`${server!.url}/endpoint/profile`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"last"}',
    });
    expect(await server!.stop()).to.equal(0);
    server = undefined;
    expect((JSON.parse(readFileSync(db, 'utf8')) as { profile: unknown }).profile).to.deep.equal({ name: 'last' });
  });

  it('reports a key that cannot be a name with the file, line and column, serving the other keys', async () => {
    writeFileSync(db, '{\n  "posts": [],\n  "bad key": []\n}\n');
    await start(['--db', db]);
    await until(() => server!.stderr().includes(`${db}:3:14: name must be`));
    expect((await fetch(`${server!.url}/endpoint/posts`)).status).to.equal(200);
  });

  it('--write-db keeps $schema and a key it cannot serve as the file had them', async () => {
    const text = { $schema: './node_modules/json-server/schema.json', posts: [], count: 3 };
    writeFileSync(db, JSON.stringify(text));
    await start(['--db', db, '--write-db']);
    await post('posts', { title: 'written' });
    const read = () => JSON.parse(readFileSync(db, 'utf8')) as typeof text & { posts: object[] };
    await until(() => read().posts.length === 1);
    expect(read()).to.deep.equal({ ...text, posts: [{ title: 'written', id: 1 }] });
  });

  it('reads the file through the Files gate: one past the cap is reported unread, serving none of it', async () => {
    writeFileSync(db, '');
    truncateSync(db, MAX_SOURCE_FILE_BYTES + 1);
    await start(['--db', db]);
    const why = `the file has ${MAX_SOURCE_FILE_BYTES + 1} bytes; at most ${MAX_SOURCE_FILE_BYTES} are read`;
    await until(() => server!.stderr().includes(`! ${db}: ${why}`));
    const { errors } = (await (await fetch(`${server!.url}/api/sources`)).json()) as { errors: object[] };
    expect(errors).to.deep.equal([{ source: `file:${db}`, file: db, message: why }]);
  });

  it('refuses a --db file that is not there', async () => {
    const none = join(temp.dir, 'none.json');
    await expectFailure(start(['--db', none]), `--db ${none}: no such file`);
  });
});

async function expectFailure(started: Promise<unknown>, message: string): Promise<void> {
  try {
    await started;
  } catch (err) {
    expect((err as Error).message).to.include(message);
    return;
  }
  expect.fail('the server started');
}

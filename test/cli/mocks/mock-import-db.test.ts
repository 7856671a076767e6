import { expect } from 'chai';
import { runCli, useMockProcess } from '../../helpers/cli.js';
import { jsonServerDb } from '../../mocks/collections/json-server-db.js';

describe('snippetkit mock import --collections of a json-server db.json', function () {
  this.timeout(60_000); // several CLI runs: seconds each on a loaded 2-core machine
  const server = useMockProcess();
  const cli = (args: string[]) => runCli(['mock', 'import', ...args, '--server', server.url]);

  it('makes a collection endpoint per key, served with json-server routes', async () => {
    const file = server.file('db.json', JSON.stringify(jsonServerDb()));
    const result = await cli([file, '--collections']);
    expect(result.stderr).to.contain(`imported 3 endpoints from ${file}: 3 created, 0 replaced`);
    expect(result.code).to.equal(0);
    const res = await fetch(`${server.url}/endpoint/posts?_sort=views&_order=desc&_limit=1`);
    expect(((await res.json()) as { id: number }[]).map((post) => post.id)).to.deep.equal([30]);
    const record = (await (await fetch(`${server.url}/api/endpoint/profile`)).json()) as Record<string, unknown>;
    expect(record).to.deep.include({ collection: true, data: { name: 'typicode' } });
  });

  it('leaves out $schema and takes items without ids, as json-server 0.17 serves them', async () => {
    const db = { $schema: './node_modules/json-server/schema.json', tags: [{ name: 'a' }, { name: 'b' }] };
    const file = server.file('schema.json', JSON.stringify(db));
    const result = await cli([file, '--collections']);
    expect(result.stderr).to.contain(`imported 1 endpoints from ${file}: 1 created, 0 replaced`);
    expect(result.code).to.equal(0);
    expect(await (await fetch(`${server.url}/endpoint/tags?name=b`)).json()).to.deep.equal([{ name: 'b' }]);
  });

  it('names the key and field of a collection that does not validate, and imports nothing', async () => {
    const file = server.file('bad.json', JSON.stringify({ users: [{ id: 1 }, { id: 1 }] }));
    const result = await cli([file, '--collections']);
    expect(result.code).to.not.equal(0);
    expect(result.stderr).to.contain(`${file} #0 (users)`);
    expect(result.stderr).to.contain('data[1].id 1 is there twice');
    expect((await fetch(`${server.url}/endpoint/users`)).status).to.equal(404);
  });

  it('refuses a file that is not an object of collections', async () => {
    const file = server.file('list.json', '[1, 2]');
    const result = await cli([file, '--collections']);
    expect(result.code).to.not.equal(0);
    expect(result.stderr).to.contain(`${file}: a database must be a JSON object: each key a collection`);
  });
});

import { expect } from 'chai';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

describe('snippetkit mock add, add --force and rm on an endpoint that comes from a file', function () {
  this.timeout(30_000);
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess;
  let usersFile: string;
  before(async () => {
    temp = tempDir();
    mkdirSync(join(temp.dir, 'mocks'));
    usersFile = join(temp.dir, 'mocks', 'users.json');
    writeFileSync(usersFile, '{"name":"users","data":[1,2]}');
    writeFileSync(join(temp.dir, 'other.json'), '{"a":1}');
    server = await startServerProcess(['serve-mocks', '--port', '0', '--data', join(temp.dir, 'm.sqlite'), '--dir', join(temp.dir, 'mocks')]);
  });
  after(async () => {
    await server.stop();
    temp.cleanup();
  });
  const mock = (...args: string[]) => runCli(['mock', ...args, '--server', server.url]);

  for (const args of [['add', 'users', 'OTHER'], ['add', 'users', 'OTHER', '--force'], ['rm', 'users']]) {
    it(`mock ${args.join(' ').replace('OTHER', 'other.json')} names the file to edit, not --force`, async () => {
      const result = await mock(...args.map((arg) => (arg === 'OTHER' ? join(temp.dir, 'other.json') : arg)));
      expect(result.code).to.equal(9);
      expect(result.stderr).to.equal(
        `snippetkit: the mock server refused it: endpoint 'users' comes from file:${usersFile}: change or delete it there (field name)\n`,
      );
    });
  }

  it('still says "pass --force" for a name taken by an endpoint of the API', async () => {
    const other = join(temp.dir, 'other.json');
    expect((await mock('add', 'mine', other)).code).to.equal(0);
    const again = await mock('add', 'mine', other);
    expect(again.code).to.equal(9);
    expect(again.stderr).to.equal('snippetkit: an endpoint named mine already exists; pass --force to replace it\n');
    expect((await fetch(`${server.url}/endpoint/users`)).status).to.equal(200);
  });
});

import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

// The client commands against `snippetkit serve`, given one URL: the bin commands use it as it is,
// the mock commands find the mock API under /mocks by GET /api/whoami (docs/serve.md).

describe('client commands against snippetkit serve', function () {
  this.timeout(60_000); // a server process and many CLI runs: seconds each on a loaded machine
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess;
  let mocksAlone: ServerProcess;

  before(async () => {
    temp = tempDir();
    // The defaults: on 127.0.0.1 the bins make their own key, which client commands on this machine use.
    [server, mocksAlone] = await Promise.all([
      startServerProcess(['serve', '--port', '0', '--bin-data', join(temp.dir, 'b.sqlite'), '--mock-data', join(temp.dir, 'm.sqlite')]),
      startServerProcess(['serve-mocks', '--port', '0', '--data', join(temp.dir, 'alone.sqlite')]),
    ]);
  });
  after(async () => {
    await Promise.all([server?.stop(), mocksAlone?.stop()]);
    temp?.cleanup();
  });

  it('saves, pulls and clones bins with SNIPPETKIT_SERVER', async () => {
    const env = { SNIPPETKIT_SERVER: server.url };
    const page = join(temp.dir, 'page.html');
    writeFileSync(page, '<p>joint</p>');
    const saved = await runCli(['save', page], env);
    expect(saved.code, saved.stderr).to.equal(0);
    expect(saved.stdout.trim()).to.match(new RegExp(`^${server.url}/[a-z]+/1$`));
    const bin = saved.stdout.trim().split('/').at(-2)!;
    const out = join(temp.dir, 'out');
    const pulled = await runCli(['pull', bin, '--out', out], env);
    expect(pulled.code, pulled.stderr).to.equal(0);
    expect(readFileSync(join(out, `${bin}.html`), 'utf8')).to.equal('<p>joint</p>');
    const cloned = await runCli(['clone', bin], env);
    expect(cloned.code, cloned.stderr).to.equal(0);
  });

  it('adds, lists, shows and removes endpoints with --server, printing their /endpoint/ URLs', async () => {
    const data = join(temp.dir, 'users.json');
    writeFileSync(data, '[{"id":1}]');
    const added = await runCli(['mock', 'add', 'users', data, '--server', server.url]);
    expect(added.code, added.stderr).to.equal(0);
    expect(added.stdout.trim()).to.equal(`${server.url}/endpoint/users`);
    expect(await (await fetch(`${server.url}/endpoint/users`)).json()).to.deep.equal([{ id: 1 }]);

    const listed = await runCli(['mock', 'list', '--json', '--server', server.url]);
    expect(listed.code, listed.stderr).to.equal(0);
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((e) => e.name)).to.include('users');

    const log = await runCli(['mock', 'log', 'users', '--server', server.url]);
    expect(log.code, log.stderr).to.equal(0);
    expect(log.stdout).to.include('GET');

    const removed = await runCli(['mock', 'rm', 'users', '--server', server.url]);
    expect(removed.code, removed.stderr).to.equal(0);
    expect((await fetch(`${server.url}/endpoint/users`)).status).to.equal(404);
  });

  it('exports and imports endpoints with SNIPPETKIT_SERVER', async () => {
    const env = { SNIPPETKIT_SERVER: server.url };
    const data = join(temp.dir, 'a.json');
    writeFileSync(data, '{"a":1}');
    expect((await runCli(['mock', 'add', 'exported', data], env)).code).to.equal(0);
    const file = join(temp.dir, 'export.json');
    const exported = await runCli(['mock', 'export', '--out', file], env);
    expect(exported.code, exported.stderr).to.equal(0);
    const imported = await runCli(['mock', 'import', file, '--server', mocksAlone.url]);
    expect(imported.code, imported.stderr).to.equal(0);
    expect(await (await fetch(`${mocksAlone.url}/endpoint/exported`)).json()).to.deep.equal({ a: 1 });
  });

  it('keeps a mock server alone where it was: SNIPPETKIT_MOCK_SERVER over SNIPPETKIT_SERVER, its API at /api', async () => {
    const data = join(temp.dir, 'b.json');
    writeFileSync(data, '{"b":2}');
    const env = { SNIPPETKIT_MOCK_SERVER: mocksAlone.url, SNIPPETKIT_SERVER: server.url };
    const added = await runCli(['mock', 'add', 'alone', data], env);
    expect(added.code, added.stderr).to.equal(0);
    expect(added.stdout.trim()).to.equal(`${mocksAlone.url}/endpoint/alone`);
    expect((await fetch(`${server.url}/endpoint/alone`)).status).to.equal(404);
  });

  it('reaches the mock API when given the joint server\'s /mocks URL itself', async () => {
    const listed = await runCli(['mock', 'list', '--json', '--server', `${server.url}/mocks`]);
    expect(listed.code, listed.stderr).to.equal(0);
    expect(JSON.parse(listed.stdout)).to.be.an('array');
  });

  it('says a bin server is not a mock server, as before', async () => {
    const bins = await startServerProcess(['serve-bins', '--port', '0', '--data', join(temp.dir, 'bins-alone.sqlite')]);
    try {
      const listed = await runCli(['mock', 'list', '--server', bins.url]);
      expect(listed.code).to.not.equal(0);
      expect(listed.stderr).to.include('does not look like a snippetkit mock server');
    } finally {
      await bins.stop();
    }
  });
});

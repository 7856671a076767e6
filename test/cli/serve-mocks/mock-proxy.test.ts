import { expect } from 'chai';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/until.js';
import { startUpstream, type Upstream } from '../../mocks/proxy/upstream.js';

describe('snippetkit serve-mocks --proxy --record (a real process)', () => {
  let temp: ReturnType<typeof tempDir>;
  let upstream: Upstream;
  let server: ServerProcess | undefined;
  beforeEach(async () => {
    temp = tempDir();
    upstream = await startUpstream();
  });
  afterEach(async () => {
    await server?.stop();
    await upstream.close();
    temp.cleanup();
  });

  it('records through the proxy, and a fresh process on the same data file replays offline', async () => {
    const data = join(temp.dir, 'mocks.sqlite');
    const args = ['serve-mocks', '--port', '0', '--data', data, '--proxy', upstream.url, '--record'];
    server = await startServerProcess(args);
    expect(server.banner).to.include(`proxy ${upstream.url} (recording)`);
    const live = await fetch(`${server.url}/endpoint/users?page=2`);
    expect(live.headers.get('x-snippetkit-proxied')).to.equal(upstream.url);
    await until(() => server!.stderr().includes("recorded GET /endpoint/users as endpoint 'get-users'"));
    expect(server.stderr()).to.include(`proxy GET /endpoint/users?page=2 -> 200 from ${upstream.url}`);
    await server.stop();
    await upstream.close();
    server = await startServerProcess(['serve-mocks', '--port', '0', '--data', data]);
    const replayed = await fetch(`${server.url}/endpoint/users?page=2`);
    expect(replayed.headers.get('x-snippetkit-proxied')).to.equal(null);
    expect(await replayed.json()).to.deep.equal({ method: 'GET', url: '/users?page=2' });
  });

  it('records into --dir as record files, each applied at once, and a fresh process serves the folder', async () => {
    const data = join(temp.dir, 'mocks.sqlite');
    const dir = join(temp.dir, 'mocks');
    mkdirSync(dir);
    const args = ['serve-mocks', '--port', '0', '--data', data, '--dir', dir, '--proxy', upstream.url, '--record'];
    server = await startServerProcess(args);
    // back to back: the second must add to the file the first wrote, not start from what the watcher has seen
    for (const page of ['1', '2']) await fetch(`${server.url}/endpoint/users?page=${page}`);
    await until(() => server!.stderr().split("recorded GET /endpoint/users as endpoint 'get-users'").length === 3);
    const file = JSON.parse(readFileSync(join(dir, 'get-users.json'), 'utf8')) as { responses: unknown[] };
    expect(file.responses).to.have.length(2);
    const listed = (await (await fetch(`${server.url}/api/endpoint/get-users`)).json()) as { source: string };
    expect(listed.source).to.equal(`file:${dir}/get-users.json`);
    await server.stop();
    await upstream.close();
    server = await startServerProcess(['serve-mocks', '--port', '0', '--data', join(temp.dir, 'b.sqlite'), '--dir', dir]);
    for (const page of ['1', '2']) {
      const replayed = await fetch(`${server.url}/endpoint/users?page=${page}`);
      expect(await replayed.json()).to.deep.equal({ method: 'GET', url: `/users?page=${page}` });
    }
  });

  const bad: [string[], NodeJS.ProcessEnv, string][] = [
    [['--proxy', 'ftp://files.example'], {}, '--proxy ftp://files.example (flag) is not an http or https URL'],
    [[], { SNIPPETKIT_MOCK_PROXY: 'nope' }, 'SNIPPETKIT_MOCK_PROXY=nope (environment) is not an http or https URL'],
    [['--proxy', 'http://a.example', '--proxy-timeout', '0'], {}, '--proxy-timeout 0 (flag) is not a whole number'],
    [['--record'], {}, '--record and --record-cookies need --proxy <url>'],
  ];
  for (const [args, env, message] of bad) {
    it(`refuses to start with ${[...args, ...Object.keys(env)].join(' ')}`, async () => {
      const data = join(temp.dir, 'mocks.sqlite');
      const result = await runCli(['serve-mocks', '--port', '0', '--data', data, ...args], env);
      expect(result.code).to.equal(2);
      expect(result.stderr).to.include(message);
    });
  }
});

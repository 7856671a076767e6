import { expect } from 'chai';
import { existsSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { runCli, startServerProcess } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

// These run the built CLI (bin/snippetkit.js -> dist/): `npm test` builds first.
describe('snippetkit serve-mocks (the process)', function () {
  this.timeout(20_000);
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    temp = tempDir();
  });
  afterEach(() => temp.cleanup());

  const put = (url: string, body: unknown) =>
    fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('prints one line with the URL and the data file, creating its folders, and stops on SIGTERM', async () => {
    const file = join(temp.dir, 'deep', 'folder', 'mocks.sqlite');
    const server = await startServerProcess(['serve-mocks', '--port', '0', '--data', file]);
    expect(server.banner).to.match(/^snippetkit mocks on http:\/\/127\.0\.0\.1:\d+ {2}data /);
    expect(server.banner).to.include(file);
    expect(existsSync(`${file}.lock`)).to.equal(true);
    expect(await server.stop()).to.equal(0);
    expect(existsSync(`${file}.lock`)).to.equal(false);
  });

  it('ends the web page\'s open event streams at shutdown instead of waiting out the grace period', async () => {
    const server = await startServerProcess(['serve-mocks', '--port', '0', '--data', join(temp.dir, 'mocks.sqlite')]);
    await put(`${server.url}/api/endpoint/add`, { name: 'watched', data: 1 });
    const stream = await fetch(`${server.url}/api/endpoint/watched/events`);
    expect(stream.headers.get('content-type')).to.match(/^text\/event-stream/);
    const started = performance.now();
    expect(await server.stop()).to.equal(0);
    expect(performance.now() - started).to.be.below(2000);
  });

  it('keeps endpoints across a restart on the same file, found through SNIPPETKIT_MOCK_DATA', async () => {
    const file = join(temp.dir, 'mocks.sqlite');
    const first = await startServerProcess(['serve-mocks', '--port', '0', '--data', file]);
    expect((await put(`${first.url}/api/endpoint/add`, { name: 'kept', data: { v: 1 }, statusCode: 202 })).status).to.equal(201);
    await first.stop();
    const second = await startServerProcess(['serve-mocks', '--port', '0'], { SNIPPETKIT_MOCK_DATA: file });
    try {
      expect(second.banner).to.include('1 endpoint');
      const res = await fetch(`${second.url}/endpoint/kept`);
      expect(res.status).to.equal(202);
      expect(await res.json()).to.deep.equal({ v: 1 });
    } finally {
      await second.stop();
    }
  });

  it('finishes a delayed request in flight when stopped with SIGTERM', async () => {
    const server = await startServerProcess(['serve-mocks', '--port', '0', '--data', join(temp.dir, 'm.sqlite')]);
    // Long enough that the stop comes while the answer is held back, well inside the 5 s grace period.
    await put(`${server.url}/api/endpoint/add`, { name: 'slow', data: 'done', delay: 1500 });
    // Connection: close (agent false), as a keep-alive socket would hold the close to its idle timeout.
    const inFlight = new Promise<string>((resolve, reject) => {
      get(`${server.url}/endpoint/slow`, { agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve(body));
      }).on('error', reject);
    });
    // In flight once the server has counted it (a hit is counted on arrival, before the delay).
    const hits = async () => ((await (await fetch(`${server.url}/api/endpoint/slow`)).json()) as { hits: number }).hits;
    while ((await hits()) === 0);
    const stopped = server.stop();
    expect(await inFlight).to.equal('"done"');
    expect(await stopped).to.equal(0);
  });

  it('refuses a second server on the same data file with exit code 3 and leaves the first untouched', async () => {
    const file = join(temp.dir, 'mocks.sqlite');
    const first = await startServerProcess(['serve-mocks', '--port', '0', '--data', file]);
    try {
      await put(`${first.url}/api/endpoint/add`, { name: 'mine', data: 1 });
      const second = await runCli(['serve-mocks', '--port', '0', '--data', file]);
      expect(second.code).to.equal(3);
      expect(second.stdout).to.equal('');
      expect(second.stderr).to.match(/^snippetkit: the data file .*mocks\.sqlite is in use by another snippetkit server/);
      expect(await (await fetch(`${first.url}/endpoint/mine`)).json()).to.equal(1);
    } finally {
      await first.stop();
    }
  });

  it('refuses a data file that is not SQLite with exit code 3', async () => {
    const file = join(temp.dir, 'notes.txt');
    writeFileSync(file, 'my notes');
    const result = await runCli(['serve-mocks', '--port', '0', '--data', file]);
    expect(result.code).to.equal(3);
    expect(result.stderr).to.include('is not a SQLite database');
  });

  for (const [args, env, message] of [
    [['--port', 'x'], {}, "option '-p, --port <port>' argument 'x' is invalid. must be a port number from 0 to 65535"],
    [['--max-delay', '-5'], {}, "option '--max-delay <ms>' argument '-5' is invalid. must be a whole number"],
    [['--max-body', '0'], {}, "option '--max-body <bytes>' argument '0' is invalid. must be at least 1"],
    [[], { SNIPPETKIT_MOCK_PORT: 'abc' }, 'SNIPPETKIT_MOCK_PORT=abc must be a port number from 0 to 65535'],
  ] as const) {
    it(`exits with code 2 for ${args.join(' ') || Object.keys(env).join(' ')}`, async () => {
      const result = await runCli(['serve-mocks', ...args, '--data', join(temp.dir, 'm.sqlite')], env);
      expect(result.code).to.equal(2);
      expect(result.stderr).to.include(message);
    });
  }

  it('takes its port from SNIPPETKIT_MOCK_PORT', async () => {
    const server = await startServerProcess(['serve-mocks', '--data', join(temp.dir, 'm.sqlite')], {
      SNIPPETKIT_MOCK_PORT: '0',
    });
    await server.stop();
    expect(server.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('applies --max-delay to new endpoints', async () => {
    const server = await startServerProcess(['serve-mocks', '--port', '0', '--max-delay', '10', '--data', join(temp.dir, 'm.sqlite')]);
    try {
      const res = await put(`${server.url}/api/endpoint/add`, { name: 'a', data: 1, delay: 11 });
      expect(await res.json()).to.deep.equal({
        success: false,
        message: 'delay must be a number of milliseconds from 0 to 10',
        field: 'delay',
      });
    } finally {
      await server.stop();
    }
  });

  it('lists its flags and examples in --help', async () => {
    const result = await runCli(['serve-mocks', '--help']);
    expect(result.code).to.equal(0);
    for (const flag of ['--port', '--host', '--data', '--max-delay', '--max-body', '--trust-proxy', '--no-cors', '--quiet']) {
      expect(result.stdout).to.include(flag);
    }
    expect(result.stdout).to.include('Examples:');
  });
});

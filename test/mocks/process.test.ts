import { expect } from 'chai';
import { existsSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { runCli, startServerProcess } from '../helpers/cli.js';
import { openSse } from '../helpers/sse.js';
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
    // Ended by the server, the stream closes cleanly; held until the grace period, its socket is cut.
    const end = stream.text().then(() => 'ended cleanly', (err: Error) => `cut: ${err.message}`);
    expect(await server.stop()).to.equal(0);
    expect(await end).to.equal('ended cleanly');
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
    // The request log tells when the request has arrived (it is logged before its delay).
    const log = await openSse(`${server.url}/api/endpoint/slow/events`);
    await log.next('log');
    // Connection: close (agent false), as a keep-alive socket would hold the close to its idle timeout.
    const inFlight = new Promise<string>((resolve, reject) => {
      get(`${server.url}/endpoint/slow`, { agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve(body));
      }).on('error', reject);
    });
    await log.next('request');
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
    [['--port', 'x'], {}, '--port x (flag) is not a port number from 0 to 65535'],
    [['--max-delay', '-5'], {}, '--max-delay -5 (flag) is not a whole number, 0 or more'],
    [['--max-body', '0'], {}, '--max-body 0 (flag) is not a size of at least 1 byte, such as 1MB or 65536'],
    [['--max-body', 'lots'], {}, '--max-body lots (flag) is not a size such as 1MB or 65536'],
    [['--log-size', '0'], {}, '--log-size 0 (flag) is not a whole number from 1 to 10000'],
    [['--log-size', '2.5'], {}, '--log-size 2.5 (flag) is not a whole number from 1 to 10000'],
    [['--max-endpoints', '0'], {}, '--max-endpoints 0 (flag) is not a whole number of at least 1'],
    [['--max-log-bytes', 'lots'], {}, '--max-log-bytes lots (flag) is not a size such as 1MB or 65536'],
    [['--max-store-bytes', '0'], {}, '--max-store-bytes 0 (flag) is not a size of at least 1 byte, such as 1MB or 65536'],
    [['--max-request-cpu', '0'], {}, '--max-request-cpu 0 (flag) is not a whole number of milliseconds from 1 to 60000'],
    [
      [],
      { SNIPPETKIT_MOCK_MAX_REQUEST_CPU: '1.5' },
      'SNIPPETKIT_MOCK_MAX_REQUEST_CPU=1.5 (environment) is not a whole number of milliseconds from 1 to 60000',
    ],
    [
      [],
      { SNIPPETKIT_MOCK_LOG_SIZE: '10001' },
      'SNIPPETKIT_MOCK_LOG_SIZE=10001 (environment) is not a whole number from 1 to 10000',
    ],
    [['--allowed-host', 'http://x/'], {}, '--allowed-host http://x/ (flag) is not a host name such as dev.example or 192.168.1.5, or all'],
    [[], { SNIPPETKIT_MOCK_PORT: 'abc' }, 'SNIPPETKIT_MOCK_PORT=abc (environment) is not a port number from 0 to 65535'],
    [[], { SNIPPETKIT_MOCK_MAX_BODY: 'lots' }, 'SNIPPETKIT_MOCK_MAX_BODY=lots (environment) is not a size such as 1MB or 65536'],
    [[], { SNIPPETKIT_MOCK_MAXBODY: '1kb' }, 'SNIPPETKIT_MOCK_MAXBODY (environment) is not a setting; known ones: SNIPPETKIT_MOCK_PORT, SNIPPETKIT_MOCK_DATA, SNIPPETKIT_MOCK_STORE, SNIPPETKIT_MOCK_DIR, SNIPPETKIT_MOCK_OPENAPI, SNIPPETKIT_MOCK_GRAPHQL, SNIPPETKIT_MOCK_GRAPHQL_PATH, SNIPPETKIT_MOCK_DB, SNIPPETKIT_MOCK_WRITE_DB, SNIPPETKIT_MOCK_MAX_DELAY, SNIPPETKIT_MOCK_MAX_BODY, SNIPPETKIT_MOCK_LOG_SIZE, SNIPPETKIT_MOCK_MAX_ENDPOINTS, SNIPPETKIT_MOCK_MAX_LOG_BYTES, SNIPPETKIT_MOCK_MAX_STORE_BYTES, SNIPPETKIT_MOCK_MAX_REQUEST_CPU, SNIPPETKIT_MOCK_CORS, SNIPPETKIT_MOCK_CORS_ORIGIN, SNIPPETKIT_MOCK_TRUST_PROXY, SNIPPETKIT_MOCK_ALLOWED_HOSTS, SNIPPETKIT_MOCK_PROXY, SNIPPETKIT_MOCK_PROXY_TIMEOUT, SNIPPETKIT_MOCK_RECORD, SNIPPETKIT_MOCK_RECORD_COOKIES, SNIPPETKIT_MOCK_CALLBACK_HOST, SNIPPETKIT_MOCK_CALLBACK_TIMEOUT, SNIPPETKIT_MOCK_VALIDATE, SNIPPETKIT_MOCK_BASE_PATH'],
    [[], { SNIPPETKIT_MOCK_CORS: 'off' }, 'SNIPPETKIT_MOCK_CORS=off (environment) is not true or false'],
    [[], { SNIPPETKIT_MOCK_TRUST_PROXY: 'false ' }, 'SNIPPETKIT_MOCK_TRUST_PROXY=false  (environment) is not true or false'],
  ] as const) {
    it(`exits with code 2 for ${args.join(' ') || Object.keys(env).join(' ')}`, async () => {
      const result = await runCli(['serve-mocks', ...args, '--data', join(temp.dir, 'm.sqlite')], env);
      expect(result.code).to.equal(2);
      expect(result.stderr).to.equal(`snippetkit: ${message}\n`);
      expect(existsSync(join(temp.dir, 'm.sqlite')), 'nothing opened').to.equal(false);
    });
  }

  it('refuses one endpoint more than --max-endpoints with a 507', async () => {
    const args = ['serve-mocks', '--port', '0', '--data', join(temp.dir, 'm.sqlite'), '--max-endpoints', '1'];
    const server = await startServerProcess(args);
    try {
      expect((await put(`${server.url}/api/endpoint/add`, { name: 'one', data: 1 })).status).to.equal(201);
      const res = await put(`${server.url}/api/endpoint/add`, { name: 'two', data: 2 });
      expect(res.status).to.equal(507);
      expect(((await res.json()) as { message: string }).message).to.equal(
        'no room for another endpoint: the server holds at most 1 (--max-endpoints); delete one first',
      );
    } finally {
      await server.stop();
    }
  });

  it('refuses a record past SNIPPETKIT_MOCK_MAX_STORE_BYTES with a 507, storing nothing', async () => {
    const args = ['serve-mocks', '--port', '0', '--data', join(temp.dir, 'm.sqlite')];
    const server = await startServerProcess(args, { SNIPPETKIT_MOCK_MAX_STORE_BYTES: '100kb' });
    try {
      expect((await put(`${server.url}/api/endpoint/add`, { name: 'a', data: 'x'.repeat(30 * 1024) })).status).to.equal(201);
      const res = await put(`${server.url}/api/endpoint/add`, { name: 'b', data: 'x'.repeat(30 * 1024) });
      expect(res.status).to.equal(507);
      expect(await res.json()).to.deep.equal({
        success: false,
        message: `no room for this endpoint: records may take at most ${100 * 1024} bytes of memory (--max-store-bytes); delete some first`,
      });
      expect((await fetch(`${server.url}/api/endpoint/b`)).status).to.equal(404);
    } finally {
      await server.stop();
    }
  });

  it('keeps the request logs within --max-log-bytes', async () => {
    const args = ['serve-mocks', '--port', '0', '--data', join(temp.dir, 'm.sqlite'), '--max-log-bytes', '100kb'];
    const server = await startServerProcess(args);
    try {
      await put(`${server.url}/api/endpoint/add`, { name: 'hook', data: 1 });
      for (const n of [1, 2]) {
        await fetch(`${server.url}/endpoint/hook?n=${n}`, { method: 'POST', body: 'x'.repeat(64 * 1024) });
      }
      const { requests } = (await (await fetch(`${server.url}/api/endpoint/hook/requests`)).json()) as {
        requests: { url: string }[];
      };
      expect(requests.map((entry) => entry.url)).to.deep.equal(['/endpoint/hook?n=2']);
    } finally {
      await server.stop();
    }
  });

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
    const flags = ['--port', '--host', '--data', '--max-delay', '--max-body', '--log-size', '--max-endpoints'];
    for (const flag of [...flags, '--max-log-bytes', '--max-store-bytes', '--max-request-cpu', '--trust-proxy', '--no-cors', '--quiet']) {
      expect(result.stdout).to.include(flag);
    }
    expect(result.stdout).to.include('Examples:');
  });
});

import { expect } from 'chai';
import { once } from 'node:events';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli, startServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

// `snippetkit serve`'s flags and variables: both servers', the ambiguous ones renamed (docs/serve.md).

describe('snippetkit serve: flags and environment', function () {
  this.timeout(60_000); // server processes and CLI runs: seconds each on a loaded machine
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    temp = tempDir();
  });
  afterEach(() => temp.cleanup());

  it('lists both servers\' flags in --help, the data flags named per app, with examples', async () => {
    const result = await runCli(['serve', '--help']);
    expect(result.code, result.stderr).to.equal(0);
    for (const flag of ['--bin-data', '--bin-store', '--mock-data', '--mock-store', '--config', '--no-generated-key',
      '--dir', '--openapi', '--db', '--write-db', '--proxy', '--record', '--max-body', '--cors-origin', '--no-cors',
      '--allowed-host', '--port']) {
      expect(result.stdout, flag).to.include(flag);
    }
    expect(result.stdout).not.to.match(/^\s+-d, --data/m);
    expect(result.stdout).to.include('Examples:');
    expect(result.stdout).to.include('$ snippetkit serve --dir mocks/');
  });

  const refusals: [string, string[], NodeJS.ProcessEnv, string][] = [
    ['--data, which would name one app', ['--data', 'x.sqlite'], {}, "snippetkit: unknown option '--data'"],
    ['--store, which would name one app', ['--store', 'redis://h'], {}, "snippetkit: unknown option '--store'"],
    ['--bin-data with --bin-store', ['--bin-data', 'b.sqlite', '--bin-store', 'redis://h:6379'], {},
      'snippetkit: --bin-data and --bin-store both name where the bins are; give one\n'],
    ['--mock-data with SNIPPETKIT_MOCK_STORE', ['--mock-data', 'm.sqlite'], { SNIPPETKIT_MOCK_STORE: 'redis://h:6379' },
      'snippetkit: --mock-data and SNIPPETKIT_MOCK_STORE both name where the mocks are; give one\n'],
    ['one file for both apps', ['--bin-data', 'same.sqlite', '--mock-data', './same.sqlite'], {},
      'snippetkit: the bins and the mocks cannot share one data file (same.sqlite): give --bin-data and --mock-data two\n'],
    ['a bad --max-body', ['--max-body', '0'], {}, 'snippetkit: --max-body 0 (flag) is not a size of at least 1 byte, such as 1MB or 65536\n'],
    ['a bad PORT', [], { PORT: 'nope' }, 'snippetkit: PORT=nope (environment) is not'],
    ['a misspelt mock variable', [], { SNIPPETKIT_MOCK_DIRR: 'x' }, 'snippetkit: SNIPPETKIT_MOCK_DIRR (environment) is not a setting'],
    ['a bad bin config variable', [], { SNIPPETKIT_API_ALLOWANONYMOUSREAD: 'maybe' }, 'snippetkit: SNIPPETKIT_API_ALLOWANONYMOUSREAD=maybe'],
    ['--record without --proxy', ['--record'], {}, 'snippetkit: --record and --record-cookies need --proxy <url>\n'],
  ];
  for (const [label, args, env, message] of refusals) {
    it(`refuses ${label} with exit 2 and one line`, async () => {
      // A flag wins over its variable: PORT is tried without --port.
      const port = env.PORT === undefined ? ['--port', '0'] : [];
      const result = await runCli(['serve', ...port, ...args], env);
      expect(result.code, result.stderr).to.equal(2);
      expect(result.stderr.startsWith(message), result.stderr).to.equal(true);
    });
  }

  it('takes the data files from SNIPPETKIT_BIN_DATA and SNIPPETKIT_MOCK_DATA, and ignores SNIPPETKIT_MOCK_PORT', async () => {
    const env = {
      SNIPPETKIT_BIN_DATA: join(temp.dir, 'env-bins.sqlite'),
      SNIPPETKIT_MOCK_DATA: join(temp.dir, 'env-mocks.sqlite'),
      SNIPPETKIT_MOCK_PORT: '1', // serve-mocks' port: serve has one, --port or PORT
    };
    const server = await startServerProcess(['serve', '--port', '0'], env);
    try {
      expect(server.stdout()).to.include(`data ${env.SNIPPETKIT_BIN_DATA}`);
      expect(server.stdout()).to.include(`data ${env.SNIPPETKIT_MOCK_DATA}`);
      expect(existsSync(env.SNIPPETKIT_BIN_DATA) && existsSync(env.SNIPPETKIT_MOCK_DATA)).to.equal(true);
    } finally {
      await server.stop();
    }
  });

  it('serves --dir, --db and SNIPPETKIT_MOCK_OPENAPI as serve-mocks does, under /endpoint/', async () => {
    mkdirSync(join(temp.dir, 'mocks'));
    writeFileSync(join(temp.dir, 'mocks', 'hello.json'), '{"data": {"hello": "world"}}');
    writeFileSync(join(temp.dir, 'db.json'), '{"posts": [{"id": 1, "title": "a"}]}');
    const petstore = new URL('../../fixtures/openapi/petstore-3.0.yaml', import.meta.url).pathname;
    const server = await startServerProcess(
      ['serve', '--port', '0', '--bin-data', join(temp.dir, 'b.sqlite'), '--mock-data', join(temp.dir, 'm.sqlite'),
        '--dir', join(temp.dir, 'mocks'), '--db', join(temp.dir, 'db.json')],
      { SNIPPETKIT_MOCK_OPENAPI: petstore },
    );
    try {
      expect(await (await fetch(`${server.url}/endpoint/hello`)).json()).to.deep.equal({ hello: 'world' });
      expect(await (await fetch(`${server.url}/endpoint/posts/1`)).json()).to.deep.equal({ id: 1, title: 'a' });
      const sources = (await (await fetch(`${server.url}/mocks/api/endpoints`)).json()) as { endpoints: unknown[] };
      expect(sources.endpoints.length).to.be.greaterThan(3);
    } finally {
      await server.stop();
    }
  });

  it('takes --allowed-host for both apps: one listener, one Host check', async () => {
    const server = await startServerProcess(
      ['serve', '--port', '0', '--bin-data', join(temp.dir, 'b.sqlite'), '--mock-data', join(temp.dir, 'm.sqlite')],
      { SNIPPETKIT_MOCK_ALLOWED_HOSTS: 'mocks.test', SNIPPETKIT_ALLOWED_HOSTS: 'bins.test' },
    );
    try {
      const { rawRequest } = await import('../../helpers/raw-http.js');
      for (const host of ['mocks.test', 'bins.test']) {
        for (const path of ['/status', '/endpoint/x', '/mocks/api/endpoints']) {
          const answer = await rawRequest(server.url, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
          expect(answer.status, `${host}${path}`).not.to.equal(403);
        }
      }
    } finally {
      await server.stop();
    }
  });

  it('says a port in use in one line and exits 1', async () => {
    const holder = createServer().listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const port = (holder.address() as AddressInfo).port;
    try {
      const result = await runCli(['serve', '--port', String(port), '--bin-data', join(temp.dir, 'b.sqlite'),
        '--mock-data', join(temp.dir, 'm.sqlite'), '--dir', temp.dir]);
      expect([result.code, result.stderr]).to.deep.equal([
        1,
        `snippetkit: port ${port} on 127.0.0.1 is already in use: stop the server that has it (Ctrl+C where it runs) or pass --port with another one\n`,
      ]);
    } finally {
      holder.close();
    }
  });

  it('on SIGINT finishes, closes both stores and exits 0; a new start finds the bins and the mocks', async () => {
    const files = ['--bin-data', join(temp.dir, 'b.sqlite'), '--mock-data', join(temp.dir, 'm.sqlite')];
    const open = { SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true' };
    const first = await startServerProcess(['serve', '--port', '0', ...files], open);
    const saved = await fetch(`${first.url}/api/save`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'html=kept',
    });
    const { url } = (await saved.json()) as { url: string };
    await fetch(`${first.url}/mocks/api/endpoint/kept`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"data":1}' });
    await fetch(`${first.url}/endpoint/kept`);
    expect(await first.stop('SIGINT')).to.equal(0);
    expect(first.stderr()).to.include('SIGINT: finishing requests in flight');
    const second = await startServerProcess(['serve', '--port', '0', ...files], open);
    try {
      expect(((await (await fetch(`${second.url}/api/${url}`)).json()) as { html: string }).html).to.equal('kept');
      const record = (await (await fetch(`${second.url}/mocks/api/endpoint/kept`)).json()) as { hits: number };
      expect(record.hits).to.equal(1);
    } finally {
      await second.stop();
    }
  });
});

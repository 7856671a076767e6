import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, startServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

const HINT = 'is not an origin such as https://app.example or http://localhost:5173, or * for any page';

describe('snippetkit serve-mocks --cors-origin', function () {
  this.timeout(60_000); // a server process and CLI runs: seconds each on a loaded 2-core machine
  const temp = tempDir();
  after(() => temp.cleanup());

  it('lets the pages of SNIPPETKIT_MOCK_CORS_ORIGIN (commas) use the management API, and refuses others', async () => {
    const args = ['serve-mocks', '--port', '0', '--data', join(temp.dir, 'ok.sqlite')];
    const env = { SNIPPETKIT_MOCK_CORS_ORIGIN: 'https://a.example, https://B.example:8443/' };
    const server = await startServerProcess(args, env);
    try {
      const put = (origin: string, name: string) =>
        fetch(`${server.url}/api/endpoint/add`, { method: 'PUT', headers: { origin }, body: JSON.stringify({ name, data: 1 }) });
      const a = await put('https://a.example', 'a');
      expect([a.status, a.headers.get('access-control-allow-origin')]).to.deep.equal([201, 'https://a.example']);
      expect((await put('https://b.example:8443', 'b')).status).to.equal(201);
      const c = await put('https://c.example', 'c');
      expect(c.status).to.equal(403);
      expect(await c.json()).to.deep.equal({
        success: false,
        message: 'pages on https://c.example may not use this API; start the server with --cors-origin https://c.example to allow them',
      });
    } finally {
      await server.stop();
    }
  });

  for (const [args, env, message] of [
    [['--cors-origin', 'https://a.example/x'], {}, `--cors-origin https://a.example/x (flag) ${HINT}`],
    [['--cors-origin', 'null'], {}, `--cors-origin null (flag) ${HINT}`],
    [[], { SNIPPETKIT_MOCK_CORS_ORIGIN: 'ftp://a.example' }, `SNIPPETKIT_MOCK_CORS_ORIGIN=ftp://a.example (environment) ${HINT}`],
    [['--no-cors', '--cors-origin', 'https://a.example'], {}, '--cors-origin lets pages in that --no-cors keeps out; give one'],
    [
      ['--cors-origin', '*'],
      { SNIPPETKIT_MOCK_CORS: 'false' },
      '--cors-origin lets pages in that SNIPPETKIT_MOCK_CORS keeps out; give one',
    ],
  ] as const) {
    it(`exits with code 2 for ${[...args, ...Object.entries(env).map(([k, v]) => `${k}=${v}`)].join(' ')}`, async () => {
      const file = join(temp.dir, 'never.sqlite');
      const result = await runCli(['serve-mocks', ...args, '--port', '0', '--data', file], env);
      expect(result.stderr).to.equal(`snippetkit: ${message}\n`);
      expect(result.code).to.equal(2);
      expect(existsSync(file), 'nothing opened').to.equal(false);
    });
  }

  it('says in --help what it lets in, with an example', async () => {
    const result = await runCli(['serve-mocks', '--help']);
    const help = result.stdout.replace(/\s+/g, ' ');
    expect(help).to.include('--cors-origin <origin> a page that may use the management API besides the mock page and localhost pages');
    expect(help).to.include('$ snippetkit serve-mocks --cors-origin https://app.example');
  });
});

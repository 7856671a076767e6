import { expect } from 'chai';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../helpers/cli.js';
import { rawRequest } from '../helpers/raw-http.js';
import { tempDir } from '../helpers/temp.js';

// DNS rebinding: a page on evil.example re-points its name at 127.0.0.1 and reads or changes the
// local server as its own origin. Only the Host header tells such a request apart.
type Server = 'bins' | 'mocks';

function refusal(server: Server, host: string, name: string): unknown {
  const message =
    `requests for host ${JSON.stringify(host)} are refused (a guard against DNS rebinding); ` +
    `start the server with --allowed-host ${name} to accept them`;
  return server === 'bins' ? { error: message } : { success: false, message };
}

/** A raw request: fetch would not send a Host of our choosing. */
function ask(server: ServerProcess, path: string, host: string, method = 'GET') {
  const head = `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;
  return rawRequest(server.url, head);
}

describe('the Host check against DNS rebinding (both server processes)', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof tempDir>;
  const started: ServerProcess[] = [];
  const start = async (server: Server, args: string[] = [], env: NodeJS.ProcessEnv = {}) => {
    const file = join(temp.dir, `${server}-${started.length}.sqlite`);
    const open = server === 'bins' ? { SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true' } : {};
    const command = [`serve-${server}`, '--port', '0', '--data', file, ...args];
    const running = await startServerProcess(command, { ...open, ...env });
    started.push(running);
    return running;
  };
  before(() => {
    temp = tempDir();
  });
  after(async () => {
    await Promise.all(started.map((server) => server.stop()));
    temp.cleanup();
  });

  // Fast paths first: both servers answer these before Koa.
  /** A path each server answers with a 200. */
  const ok: Record<Server, string> = { bins: '/status', mocks: '/api/endpoints' };
  const paths: Record<Server, string[]> = {
    bins: ['/api/somebin', '/api/somebin/1', '/status', '/api/save', '/'],
    mocks: ['/endpoint/x', '/api/endpoints', '/api/endpoint/add', '/'],
  };

  for (const server of ['bins', 'mocks'] as const) {
    describe(`serve-${server} on 127.0.0.1`, () => {
      let running: ServerProcess;
      let port: string;
      before(async () => {
        running = await start(server);
        port = new URL(running.url).port;
      });

      for (const path of paths[server]) {
        it(`refuses ${path} for Host evil.example with a 403 that names the flag`, async () => {
          const method = path === '/api/save' ? 'POST' : path === '/api/endpoint/add' ? 'PUT' : 'GET';
          const answer = await ask(running, path, `evil.example:${port}`, method);
          expect(answer.status).to.equal(403);
          expect(answer.headers).to.match(/content-type: application\/json/i);
          expect(JSON.parse(answer.body)).to.deep.equal(refusal(server, `evil.example:${port}`, 'evil.example'));
        });
      }

      const loopbackHosts = [
        'localhost',
        'localhost:PORT',
        'app.localhost:PORT',
        '127.0.0.1:PORT',
        '127.1.2.3',
        '[::1]:PORT',
      ];
      for (const host of loopbackHosts) {
        it(`answers Host ${host}`, async () => {
          expect((await ask(running, ok[server], host.replace('PORT', port))).status).to.equal(200);
        });
      }

      it('answers a request with no Host header (HTTP/1.0)', async () => {
        const answer = await rawRequest(running.url, `GET ${ok[server]} HTTP/1.0\r\n\r\n`);
        expect(answer.headers).to.match(/^HTTP\/1\.[01] 200/);
      });

      it('refuses a Host that only starts like localhost', async () => {
        const answer = await ask(running, ok[server], `localhost.evil.example:${port}`);
        expect(answer.status).to.equal(403);
      });
    });
  }

  it('serve-mocks answers the hosts given with --allowed-host, and no others', async () => {
    const running = await start('mocks', ['--allowed-host', 'dev.example', '--allowed-host', 'Other.Example']);
    const port = new URL(running.url).port;
    expect((await ask(running, '/api/endpoints', `dev.example:${port}`)).status).to.equal(200);
    expect((await ask(running, '/api/endpoints', 'other.example')).status).to.equal(200);
    expect((await ask(running, '/api/endpoints', `evil.example:${port}`)).status).to.equal(403);
  });

  it('serve-bins takes allowed hosts from SNIPPETKIT_ALLOWED_HOSTS, comma-separated', async () => {
    const running = await start('bins', [], { SNIPPETKIT_ALLOWED_HOSTS: 'dev.example, 10.0.0.7' });
    expect((await ask(running, '/status', 'dev.example')).status).to.equal(200);
    expect((await ask(running, '/status', '10.0.0.7:80')).status).to.equal(200);
    expect((await ask(running, '/status', 'evil.example')).status).to.equal(403);
  });

  it('--allowed-host all turns the check off', async () => {
    const running = await start('mocks', ['--allowed-host', 'all']);
    expect((await ask(running, '/endpoint/x', 'evil.example')).status).to.equal(404);
  });

  it('has no check when listening beyond loopback, unless hosts are named', async () => {
    const open = await start('bins', ['--host', '0.0.0.0']);
    expect((await ask(open, '/status', 'evil.example')).status).to.equal(200);
    const named = await start('mocks', ['--host', '0.0.0.0', '--allowed-host', 'mocks.example']);
    expect((await ask(named, '/endpoint/x', 'mocks.example')).status).to.equal(404);
    expect((await ask(named, '/endpoint/x', 'evil.example')).status).to.equal(403);
  });
});

import { expect } from 'chai';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keepGeneratedKey, KeyFileError, readGeneratedKey } from '../../../src/bins/auth/generated-key.js';
import { runCli, startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

describe('the key a local bin server makes for itself', function () {
  this.timeout(30_000);
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess | undefined;
  // Each test has a data folder of its own: the key file lives there, as in ~/.local/share/snippetkit.
  let env: NodeJS.ProcessEnv;
  const keyFile = () => join(temp.dir, 'data', 'snippetkit', 'api-key');
  beforeEach(() => {
    temp = tempDir();
    env = { XDG_DATA_HOME: join(temp.dir, 'data') };
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    temp.cleanup();
  });
  const serve = (...args: string[]) => startServerProcess(['serve-bins', '--port', '0', '--data', join(temp.dir, 'bins.sqlite'), ...args], env);
  const save = (url: string, headers: Record<string, string> = {}) =>
    fetch(`${url}/api/save`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body: 'html=hello' });

  describe('the key file', () => {
    it('is made once, readable by its owner alone, and read again after', () => {
      const file = join(temp.dir, 'folder', 'api-key');
      const made = keepGeneratedKey(file);
      expect(made).to.include({ file, tightened: false });
      expect(made.key).to.match(/^[A-Za-z0-9_-]{32}$/);
      expect(statSync(file).mode & 0o777).to.equal(0o600);
      expect(statSync(join(temp.dir, 'folder')).mode & 0o777).to.equal(0o700);
      expect(keepGeneratedKey(file)).to.deep.equal({ key: made.key, file, tightened: false });
      expect(readGeneratedKey(file)).to.deep.equal({ key: made.key, readableByOthers: false });
    });

    it('is made readable by its owner alone when others could read it, and says so', () => {
      const file = join(temp.dir, 'api-key');
      writeFileSync(file, 'an-older-key-of-twenty-chars\n', { mode: 0o644 });
      chmodSync(file, 0o644);
      expect(keepGeneratedKey(file)).to.deep.equal({ key: 'an-older-key-of-twenty-chars', file, tightened: true });
      expect(statSync(file).mode & 0o777).to.equal(0o600);
    });

    it('is refused, naming the file, when it holds no key', () => {
      const file = join(temp.dir, 'api-key');
      writeFileSync(file, 'short\n');
      expect(() => keepGeneratedKey(file)).to.throw(KeyFileError, `the key file ${file} holds no key: delete it`);
      expect(readGeneratedKey(join(temp.dir, 'none'))).to.equal(undefined);
    });
  });

  it('lets a first serve-bins on 127.0.0.1 save: the login URL in its banner, and save finding the key', async () => {
    server = await serve();
    const key = readFileSync(keyFile(), 'utf8').trim();
    expect(statSync(keyFile()).mode & 0o777).to.equal(0o600);
    expect(server.banner).to.include("saves need this server's own key; reads are open");
    const login = `${server.url}/?api_key=${key}`;
    expect(server.stdout()).to.include(`to save from a browser, open ${login}\n`);
    expect(server.stdout()).to.include(`the key is in ${keyFile()}; client commands (save, pull, template) on this machine use it`);
    // Anyone may read; an anonymous save is refused, as JS Bin words it.
    expect((await save(server.url)).status).to.equal(403);

    const file = join(temp.dir, 'page.html');
    writeFileSync(file, '<p>saved</p>');
    const saved = await runCli(['save', file, '--server', server.url], env);
    expect(saved.stderr).to.include('took html from');
    expect(saved.code, saved.stderr).to.equal(0);
    const [, id] = /\/([a-z]+)\/1$/.exec(saved.stdout.trim())!;
    expect(await (await fetch(`${server.url}/api/${id}`)).json()).to.include({ html: '<p>saved</p>' });

    // The login URL: a session cookie, then the same page without the key.
    const answer = await fetch(login, { redirect: 'manual' });
    expect(answer.status).to.equal(303);
    expect(answer.headers.get('location')).to.equal('./');
    const cookie = answer.headers.get('set-cookie')!.split(';')[0]!;
    // With that cookie, the server's own pages save; other pages, even on this machine, do not.
    expect((await save(server.url, { Cookie: cookie, Origin: server.url })).status).to.equal(200);
    const otherPort = server.url.replace(/:\d+$/, ':9');
    for (const origin of [otherPort, 'null', 'http://localhost:3000']) {
      expect((await save(server.url, { Cookie: cookie, Origin: origin })).status, origin).to.equal(403);
    }
    expect((await save(server.url, { Cookie: cookie })).status, 'no Origin').to.equal(403);
    expect((await save(server.url, { Authorization: `token ${key}` })).status).to.equal(200);
  });

  it('keeps its key across restarts', async () => {
    server = await serve();
    const key = readFileSync(keyFile(), 'utf8');
    await server.stop();
    server = await serve();
    expect(readFileSync(keyFile(), 'utf8')).to.equal(key);
    expect((await save(server.url, { Authorization: `token ${key.trim()}` })).status).to.equal(200);
  });

  it('is neither made nor accepted where a setting says otherwise', async () => {
    mkdirSync(join(temp.dir, 'data', 'snippetkit'), { recursive: true });
    writeFileSync(keyFile(), 'the-key-an-earlier-server-made\n', { mode: 0o600 });
    const local = { Authorization: 'token the-key-an-earlier-server-made' };

    // An explicit key: the file's key is refused, as any other wrong key.
    server = await serve();
    await server.stop();
    server = await startServerProcess(['serve-bins', '--port', '0', '--data', join(temp.dir, 'b.sqlite')], { ...env, SNIPPETKIT_OWNERSHIP_API_KEY: 'secret-of-the-config' });
    expect((await save(server.url, local)).status).to.equal(403);
    expect((await save(server.url, { Authorization: 'token secret-of-the-config' })).status).to.equal(200);
    await server.stop();

    // Anonymous writes: saves need no key, and the client commands send the file's key only when asked for one.
    server = await startServerProcess(['serve-bins', '--port', '0', '--data', join(temp.dir, 'c.sqlite')], { ...env, SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true' });
    expect(server.banner).to.include('API open');
    const file = join(temp.dir, 'open.html');
    writeFileSync(file, 'open');
    const saved = await runCli(['save', file, '--server', server.url], env);
    expect(saved.code, saved.stderr).to.equal(0);
    await server.stop();

    // --no-generated-key: read-only, as before, and the client says the key is refused.
    server = await serve('--no-generated-key');
    expect(server.banner).to.include('API read-only');
    const refused = await runCli(['save', file, '--server', server.url], env);
    expect(refused.code).to.equal(5);
    expect(refused.stderr).to.include(`the bin server refused the key in ${keyFile()}`);
  });

  it('stops the server with exit code 3 when the key file holds no key', async () => {
    mkdirSync(join(temp.dir, 'data', 'snippetkit'), { recursive: true });
    writeFileSync(keyFile(), '\n');
    const result = await runCli(['serve-bins', '--port', '0', '--data', join(temp.dir, 'bins.sqlite')], env);
    expect(result.code).to.equal(3);
    expect(result.stderr).to.equal(`snippetkit: the key file ${keyFile()} holds no key: delete it, and a new one is made at the next start\n`);
  });

  it('is not made on an address other machines can reach', async () => {
    server = await startServerProcess(['serve-bins', '--port', '0', '--host', '0.0.0.0', '--data', join(temp.dir, 'bins.sqlite')], env);
    expect(server.banner).to.include('API read-only');
    expect(server.banner).to.include('a key of its own is made on a loopback address only');
    expect(existsSync(keyFile())).to.equal(false);
  });
});

import { expect } from 'chai';
import { readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { runCli, startServerProcess, type ServerProcess } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Everything the server wrote on stderr, once it has stopped and the stream has ended (no waiting on a clock). */
async function stderrAfterStop(server: ServerProcess): Promise<string> {
  await server.stop();
  await finished(server.child.stderr!);
  return server.stderr();
}

describe('snippetkit serve-bins (the process)', function () {
  this.timeout(30_000);
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    temp = tempDir();
  });
  afterEach(() => temp.cleanup());

  const open = { SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true' };

  // The default, a key of its own and the login URL: test/cli/start/generated-key.test.ts.
  it('prints one line with the URL, the data file and the API mode, and stops cleanly on SIGTERM', async () => {
    const file = join(temp.dir, 'deep', 'folder', 'bins.sqlite');
    const server = await startServerProcess(['serve-bins', '--port', '0', '--data', file, '--no-generated-key']);
    expect(server.banner).to.match(/^snippetkit bins on http:\/\/127\.0\.0\.1:\d+ /);
    expect(server.banner).to.include(file);
    expect(server.banner).to.include('API read-only');
    expect(server.banner).to.include('SNIPPETKIT_OWNERSHIP_API_KEY');
    expect(await (await fetch(`${server.url}/status`)).text()).to.equal('OK');
    expect(existsSync(`${file}.lock`)).to.equal(true);
    expect(existsSync(`${file}-wal`), 'SQLite runs in WAL mode').to.equal(true);
    expect(await server.stop()).to.equal(0);
    expect(existsSync(`${file}.lock`)).to.equal(false);
  });

  it('ends open event streams at shutdown instead of waiting out the grace period', async () => {
    const file = join(temp.dir, 'bins.sqlite');
    const server = await startServerProcess(['serve-bins', '--port', '0', '--data', file], open);
    await fetch(`${server.url}/api/live-bin/save`, { method: 'POST', body: new URLSearchParams({ html: 'x' }) });
    const stream = await fetch(`${server.url}/live-bin`, { headers: { Accept: 'text/event-stream' } });
    expect(stream.headers.get('content-type')).to.match(/^text\/event-stream/);
    // Ended by the server, the stream closes cleanly; held until the grace period, its socket is cut.
    const end = stream.text().then(() => 'ended cleanly', (err: Error) => `cut: ${err.message}`);
    expect(await server.stop()).to.equal(0);
    expect(await end).to.equal('ended cleanly');
  });

  it('keeps saved bins across a restart on the same file', async () => {
    const file = join(temp.dir, 'bins.sqlite');
    const first = await startServerProcess(['serve-bins', '--port', '0', '--data', file], open);
    const res = await fetch(`${first.url}/api/save`, { method: 'POST', body: new URLSearchParams({ html: 'kept ✓' }) });
    const { url } = (await res.json()) as { url: string };
    await first.stop();
    const second = await startServerProcess(['serve-bins', '--port', '0'], { ...open, SNIPPETKIT_BIN_DATA: file });
    try {
      const bin = await (await fetch(`${second.url}/api/${url}`)).json();
      expect(bin).to.include({ html: 'kept ✓', snapshot: 1 });
    } finally {
      await second.stop();
    }
  });

  it('refuses a second server on the same data file and leaves the first untouched', async () => {
    const file = join(temp.dir, 'bins.sqlite');
    const first = await startServerProcess(['serve-bins', '--port', '0', '--data', file], open);
    try {
      await fetch(`${first.url}/api/save`, { method: 'POST', body: new URLSearchParams({ html: 'x' }) });
      const before = statSync(file);
      const second = await runCli(['serve-bins', '--port', '0', '--data', file]);
      expect(second.code).to.equal(3);
      expect(second.stderr).to.include(`the data file ${file} is in use by another snippetkit server (pid ${first.child.pid})`);
      expect(second.stderr).not.to.match(/\n\s+at /);
      expect(statSync(file).mtimeMs).to.equal(before.mtimeMs);
      expect((await fetch(`${first.url}/status`)).status).to.equal(200);
    } finally {
      await first.stop();
    }
  });

  it('takes over the lock of a server that was killed', async () => {
    const file = join(temp.dir, 'bins.sqlite');
    const first = await startServerProcess(['serve-bins', '--port', '0', '--data', file]);
    await first.stop('SIGKILL');
    expect(existsSync(`${file}.lock`)).to.equal(true);
    const second = await startServerProcess(['serve-bins', '--port', '0', '--data', file]);
    expect(await second.stop()).to.equal(0);
  });

  it('refuses a data file that is not SQLite, naming it, and leaves it as it was', async () => {
    const file = join(temp.dir, 'notes.txt');
    writeFileSync(file, 'my precious notes\n');
    const result = await runCli(['serve-bins', '--port', '0', '--data', file]);
    expect(result.code).to.equal(3);
    expect(result.stderr.trim()).to.equal(
      `snippetkit: the data file ${file} is not a SQLite database; pass --data with another file`,
    );
    expect(readFileSync(file, 'utf8')).to.equal('my precious notes\n');
    expect(existsSync(`${file}.lock`)).to.equal(false);
  });

  it('refuses a data file in a folder it cannot create, naming the folder', async () => {
    const blocker = join(temp.dir, 'a-file');
    writeFileSync(blocker, '');
    const result = await runCli(['serve-bins', '--port', '0', '--data', join(blocker, 'bins.sqlite')]);
    expect(result.code).to.equal(3);
    expect(result.stderr).to.include(`cannot use the folder ${blocker} for the data file`);
  });

  it('merges a --config file over the defaults', async () => {
    const config = join(temp.dir, 'config.json');
    writeFileSync(config, JSON.stringify({ api: { allowAnonymousReadWrite: true } }));
    const server = await startServerProcess(['serve-bins', '--port', '0', '--data', join(temp.dir, 'b.sqlite'), '--config', config]);
    try {
      expect(server.banner).to.include('API open');
      const res = await fetch(`${server.url}/api/save`, { method: 'POST', body: new URLSearchParams({ html: 'x' }) });
      expect(res.status).to.equal(200);
    } finally {
      await server.stop();
    }
  });

  it('lets SNIPPETKIT_<PATH> set a single key, over the config file', async () => {
    const config = join(temp.dir, 'config.json');
    writeFileSync(config, JSON.stringify({ ownership: { api_key: 'from-file' } }));
    const server = await startServerProcess(
      ['serve-bins', '--port', '0', '--data', join(temp.dir, 'b.sqlite'), '--config', config],
      { SNIPPETKIT_OWNERSHIP_API_KEY: 'from-env' },
    );
    try {
      expect(server.banner).to.include('API keyed');
      const post = (key: string) =>
        fetch(`${server.url}/api/save`, { method: 'POST', headers: { Authorization: `token ${key}` }, body: new URLSearchParams({ html: 'x' }) });
      expect((await post('from-file')).status).to.equal(403);
      expect((await post('from-env')).status).to.equal(200);
    } finally {
      await server.stop();
    }
  });

  it('says which config file is not valid JSON', async () => {
    const config = join(temp.dir, 'bad.json');
    writeFileSync(config, '{ nope');
    const result = await runCli(['serve-bins', '--data', join(temp.dir, 'b.sqlite'), '--config', config]);
    expect(result.code).to.equal(2);
    expect(result.stderr).to.include(`the config file ${config} is not valid JSON`);
  });

  it('refuses a frameAncestors setting that is not a CSP source list, as a usage error', async () => {
    const result = await runCli(['serve-bins', '--data', join(temp.dir, 'b.sqlite')], { SNIPPETKIT_OUTPUT_FRAMEANCESTORS: "'self'; script-src *" });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.equal(
      `snippetkit: SNIPPETKIT_OUTPUT_FRAMEANCESTORS='self'; script-src * (environment) is not a CSP frame-ancestors source list such as "'self'", "'none'", "*" or origins\n`,
    );
    expect(existsSync(join(temp.dir, 'b.sqlite'))).to.equal(false);
  });

  it('takes its port from PORT', async () => {
    const port = await freePort();
    const server = await startServerProcess(['serve-bins', '--data', join(temp.dir, 'b.sqlite')], { PORT: String(port) });
    expect(server.url).to.equal(`http://127.0.0.1:${port}`);
    await server.stop();
  });

  it('says when PORT is not a port', async () => {
    const result = await runCli(['serve-bins', '--data', join(temp.dir, 'b.sqlite')], { PORT: 'http' });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.equal('snippetkit: PORT=http (environment) is not a port number from 0 to 65535\n');
  });

  it('says when its port is taken', async () => {
    const first = await startServerProcess(['serve-bins', '--port', '0', '--data', join(temp.dir, 'a.sqlite')]);
    try {
      const port = new URL(first.url).port;
      const result = await runCli(['serve-bins', '--port', port, '--data', join(temp.dir, 'b.sqlite')]);
      expect(result.code).to.equal(1);
      expect(result.stderr.trim()).to.equal(`snippetkit: port ${port} on 127.0.0.1 is already in use: stop the server that has it (Ctrl+C where it runs) or pass --port with another one`);
      expect(existsSync(join(temp.dir, 'b.sqlite.lock'))).to.equal(false);
    } finally {
      await first.stop();
    }
  });

  it('warns when it listens beyond this machine with anonymous writes on', async () => {
    const server = await startServerProcess(['serve-bins', '--port', '0', '--host', '0.0.0.0', '--data', join(temp.dir, 'b.sqlite')], open);
    expect(await stderrAfterStop(server)).to.include('warning: listening on 0.0.0.0 with anonymous writes on');
  });

  it('does not warn on loopback', async () => {
    const server = await startServerProcess(['serve-bins', '--port', '0', '--data', join(temp.dir, 'b.sqlite')], open);
    expect(await stderrAfterStop(server)).not.to.include('warning');
  });

  it('never prints the API key, whatever requests carry it', async () => {
    const key = 'very-secret-key-1234';
    const server = await startServerProcess(['serve-bins', '--port', '0', '--data', join(temp.dir, 'b.sqlite')], { SNIPPETKIT_OWNERSHIP_API_KEY: key });
    try {
      await fetch(`${server.url}/api/save?api_key=${key}`, { method: 'POST', body: new URLSearchParams({ html: 'x' }) });
      await fetch(`${server.url}/api/save?api_key=${key}x`, { method: 'POST', body: new URLSearchParams({ html: 'x' }) });
      const wrong = await fetch(`${server.url}/api/nosuch?api_key=${key}`, { headers: { Authorization: `token ${key}` } });
      expect(await wrong.text()).not.to.include(key);
      await fetch(`${server.url}/api/save?api_key=${key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    } finally {
      await server.stop();
    }
    expect(server.banner).not.to.include(key);
    expect(server.stderr()).not.to.include(key);
  });

  it('has help with examples', async () => {
    const result = await runCli(['serve-bins', '--help']);
    expect(result.code).to.equal(0);
    expect(result.stdout).to.include('--data <file>');
    expect(result.stdout).to.include('Examples:');
  });
});

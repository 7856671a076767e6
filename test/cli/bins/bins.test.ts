import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

describe('snippetkit save and pull', function () {
  this.timeout(60_000); // tests run the CLI several times: seconds each on a loaded 2-core machine
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess;
  let keyed: ServerProcess;
  let mocks: ServerProcess;
  const cli = (args: string[], input?: string, env: NodeJS.ProcessEnv = {}) =>
    runCli(args, { SNIPPETKIT_BIN_SERVER: server.url, ...env }, input);

  before(async () => {
    temp = tempDir();
    [server, keyed, mocks] = await Promise.all([
      startServerProcess(['serve-bins', '--port', '0', '--data', join(temp.dir, 'open.sqlite')], {
        SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true',
      }),
      startServerProcess(['serve-bins', '--port', '0', '--data', join(temp.dir, 'keyed.sqlite')], {
        SNIPPETKIT_OWNERSHIP_API_KEY: 'k3y',
      }),
      startServerProcess(['serve-mocks', '--port', '0', '--data', join(temp.dir, 'mocks.sqlite')]),
    ]);
  });
  after(async () => {
    await Promise.all([server.stop(), keyed.stop(), mocks.stop()]);
    temp.cleanup();
  });

  function files(dir: string, contents: Record<string, string>): void {
    for (const [name, text] of Object.entries(contents)) writeFileSync(join(dir, name), text);
  }

  it('round-trips the panels byte for byte, unicode and an empty panel included', async () => {
    const src = tempDir();
    const html = '<!doctype html>\r\n<h1>Grüße 👋</h1>\n';
    const css = 'h1 { content: "→ ✓"; }\n';
    files(src.dir, { 'page.html': html, 'page.css': css, 'page.js': '' });
    const saved = await cli(['save', join(src.dir, 'page.html')]);
    expect(saved.code, saved.stderr).to.equal(0);
    const url = saved.stdout.trim();
    expect(url).to.match(new RegExp(`^${server.url.replace(/\./g, '\\.')}/[a-z]{6}/1$`));
    expect(saved.stderr).to.include('took html from page.html, css from page.css, javascript from page.js');
    const bin = url.split('/').at(-2)!;

    const out = join(src.dir, 'out');
    const pulled = await cli(['pull', bin, '--out', out]);
    expect(pulled.code, pulled.stderr).to.equal(0);
    expect(readdirSync(out).sort()).to.deep.equal([`${bin}.css`, `${bin}.html`]);
    expect(readFileSync(join(out, `${bin}.html`), 'utf8')).to.equal(html);
    expect(readFileSync(join(out, `${bin}.css`), 'utf8')).to.equal(css);
    src.cleanup();
  });

  it('saves a new revision with --bin and pulls any revision', async () => {
    const src = tempDir();
    files(src.dir, { 'a.js': 'one()', 'b.js': 'two()' });
    const first = await cli(['save', join(src.dir, 'a.js'), '--json']);
    const { bin } = JSON.parse(first.stdout);
    const second = await cli(['save', '--js', join(src.dir, 'b.js'), '--bin', bin]);
    expect(second.stdout.trim()).to.equal(`${server.url}/${bin}/2`);
    expect((await cli(['pull', `${bin}/1`, '--stdout', 'js'])).stdout).to.equal('one()');
    expect((await cli(['pull', `${server.url}/${bin}/2/edit`, '--stdout', 'js'])).stdout).to.equal('two()');
    src.cleanup();
  });

  it('prints parseable JSON and nothing else with --json', async () => {
    const result = await cli(['save', '-', '--json'], '<p>from stdin</p>');
    expect(result.code).to.equal(0);
    expect(result.stderr).to.equal('');
    const saved = JSON.parse(result.stdout);
    expect(saved).to.include({ snapshot: 1, summary: 'from stdin' });
    expect(saved.url).to.equal(`${server.url}/${saved.bin}/1`);
    const out = tempDir();
    const pulled = JSON.parse((await cli(['pull', saved.bin, '--out', out.dir, '--json'])).stdout);
    expect(pulled).to.deep.equal({ bin: saved.bin, snapshot: 1, files: [join(out.dir, `${saved.bin}.html`)] });
    out.cleanup();
  });

  it('reads a panel from standard input', async () => {
    const result = await cli(['save', '--css', '-'], 'body { color: red }');
    const bin = result.stdout.trim().split('/').at(-2)!;
    expect((await cli(['pull', bin, '--stdout', 'css'])).stdout).to.equal('body { color: red }');
  });

  it('never overwrites a file unless --force', async () => {
    const src = tempDir();
    const saved = await cli(['save', '-'], 'new content');
    const bin = saved.stdout.trim().split('/').at(-2)!;
    files(src.dir, { [`${bin}.html`]: 'mine' });
    const refused = await cli(['pull', bin, '--out', src.dir]);
    expect(refused.code).to.equal(7);
    expect(refused.stderr.trim()).to.equal(`snippetkit: would overwrite ${join(src.dir, `${bin}.html`)}; pass --force to overwrite`);
    expect(readFileSync(join(src.dir, `${bin}.html`), 'utf8')).to.equal('mine');
    expect((await cli(['pull', bin, '--out', src.dir, '--force'])).code).to.equal(0);
    expect(readFileSync(join(src.dir, `${bin}.html`), 'utf8')).to.equal('new content');
    src.cleanup();
  });

  it('never sends the API key to a host named in a bin URL', async () => {
    const seen: string[] = [];
    const other = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.setHeader('content-type', 'application/json').end('{"html":"","css":"","javascript":"","snapshot":2}');
    }).listen(0, '127.0.0.1');
    await new Promise((r) => other.once('listening', r));
    try {
      const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const result = await cli(['pull', `${otherUrl}/abc/2`, '--api-key', 'k3y', '--stdout', 'html']);
      expect(result.code).to.equal(2);
      expect(result.stderr).to.equal(
        `snippetkit: ${otherUrl}/abc/2 is on ${otherUrl}, not on the bin server ${server.url}; pass --server ${otherUrl} to pull from it\n`,
      );
      expect(seen).to.deep.equal([]);
    } finally {
      other.close();
    }
  });

  it('clones a revision into a new bin at revision 1, preprocessors and all, and prints its URLs', async () => {
    const settings = JSON.stringify({ processors: { css: 'less' } });
    const form = new URLSearchParams({ html: '<p>first</p>', css: '@c: red; p { color: @c }', settings });
    const first = (await (await fetch(`${server.url}/api/save`, { method: 'POST', body: form })).json()) as { url: string };
    await fetch(`${server.url}/api/${first.url}/save`, { method: 'POST', body: new URLSearchParams({ html: '<p>second</p>' }) });
    const cloned = await cli(['clone', `${first.url}/1`]);
    expect(cloned.code, cloned.stderr).to.equal(0);
    const [url, edit] = cloned.stdout.trim().split('\n');
    const bin = /\/(\w+)\/1$/.exec(url!)![1]!;
    expect(bin).to.not.equal(first.url);
    expect(edit).to.equal(`${url}/edit`);
    expect(cloned.stderr).to.include(`cloned ${first.url}/1`);
    const copy = (await (await fetch(`${server.url}/api/${bin}`)).json()) as Record<string, unknown>;
    expect(copy).to.include({ html: '<p>first</p>', css: '@c: red; p { color: @c }', javascript: '', snapshot: 1 });
    expect(copy.settings).to.deep.equal({ processors: { css: 'less' } });
    const latest = await cli(['clone', first.url, '--json']);
    expect(JSON.parse(latest.stdout)).to.deep.include({ snapshot: 1, from: { bin: first.url, snapshot: 2 } });
  });

  describe('errors: one line, a documented exit code, no stack', () => {
    let html: Server;
    let htmlUrl: string;
    let closedUrl: string;
    before(async () => {
      const probe = createServer().listen(0, '127.0.0.1');
      await new Promise((r) => probe.once('listening', r));
      closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
      await new Promise((r) => probe.close(r));
      html = createServer((_req, res) => res.setHeader('content-type', 'text/html').end('<html>not an API</html>')).listen(0, '127.0.0.1');
      await new Promise((r) => html.once('listening', r));
      htmlUrl = `http://127.0.0.1:${(html.address() as AddressInfo).port}`;
      expect((await cli(['save', '-', '--bin', 'pulled'], '<p>to pull</p>')).code).to.equal(0);
    });
    after(() => html.close());

    const cases: { name: string; args: () => string[]; env?: () => NodeJS.ProcessEnv; code: number; message: () => string }[] = [
      {
        name: 'a server that is not running',
        args: () => ['pull', 'abc', '--server', closedUrl],
        code: 4,
        message: () => `snippetkit: cannot reach the bin server at ${closedUrl} (ECONNREFUSED); start one with \`snippetkit serve-bins\` or pass --server URL`,
      },
      {
        name: 'a save without the key the server needs',
        args: () => ['save', '-', '--server', keyed.url],
        code: 5,
        message: () => 'snippetkit: the bin server needs an API key (You need to provide a valid API key when using this API): pass --api-key KEY or set SNIPPETKIT_API_KEY',
      },
      {
        name: 'a wrong key',
        args: () => ['save', '-', '--server', keyed.url, '--api-key', 'nope'],
        code: 5,
        message: () => 'snippetkit: the bin server refused the API key (The API key you provided is not valid): pass --api-key KEY or set SNIPPETKIT_API_KEY',
      },
      { name: 'an unknown bin', args: () => ['pull', 'nosuchbin'], code: 6, message: () => `snippetkit: no bin named nosuchbin at ${server.url}` },
      {
        name: 'a clone of a revision that is not there',
        args: () => ['clone', 'pulled/9'],
        code: 6,
        message: () => `snippetkit: bin pulled has no revision 9 at ${server.url}`,
      },
      {
        name: 'a clone from a URL on another server',
        args: () => ['clone', 'http://elsewhere.example/abc/1'],
        code: 2,
        message: () =>
          `snippetkit: http://elsewhere.example/abc/1 is on http://elsewhere.example, not on the bin server ${server.url}; ` +
          'pass --server http://elsewhere.example to clone from it',
      },
      { name: 'a missing file', args: () => ['save', '/no/such/file.html'], code: 7, message: () => 'snippetkit: cannot read /no/such/file.html: no such file' },
      {
        name: 'a server that is not the API',
        args: () => ['pull', 'abc', '--server', htmlUrl],
        code: 8,
        message: () => `snippetkit: ${htmlUrl} does not look like a snippetkit bin server: GET /api/abc answered 200 with text/html (<html>not an API</html>); check --server`,
      },
      {
        name: 'a save sent to the mock server',
        args: () => ['save', '-', '--server', mocks.url],
        code: 8,
        message: () =>
          `snippetkit: ${mocks.url} does not look like a snippetkit bin server: POST /api/save answered 404 with ` +
          'application/json; charset=utf-8 ({"success":false,"message":"no route for…), which looks like a snippetkit mock ' +
          'server; check --server',
      },
      {
        name: 'a mock list sent to the bin server',
        args: () => ['mock', 'list', '--server', server.url],
        code: 8,
        message: () =>
          `snippetkit: ${server.url} does not look like a snippetkit mock server: GET /api/endpoints answered 404 with ` +
          'application/json; charset=utf-8 ({"error":"not found"}), which looks like a snippetkit bin server; check --server',
      },
      {
        name: 'a pull into a file',
        args: () => ['pull', 'pulled', '--out', join(temp.dir, 'open.sqlite')],
        code: 7,
        message: () => `snippetkit: cannot write into ${join(temp.dir, 'open.sqlite')}: ${join(temp.dir, 'open.sqlite')} is a file, not a folder`,
      },
      {
        name: 'a pull into a folder that cannot be created',
        args: () => ['pull', 'pulled', '--out', '/proc/snippetkit/x'],
        code: 7,
        message: () => 'snippetkit: cannot create the folder /proc/snippetkit: folders cannot be created there',
      },
      {
        name: 'a bad flag value on a nested command',
        args: () => ['mock', 'add', 'x', 'y', '--status', 'abc'],
        code: 2,
        message: () => "snippetkit: option '-s, --status <code>' argument 'abc' is invalid. must be a whole number (see `snippetkit mock add --help`)",
      },
      { name: 'an unknown flag', args: () => ['save', '--bogus'], code: 2, message: () => "snippetkit: unknown option '--bogus' (see `snippetkit save --help`)" },
      { name: 'an empty save', args: () => ['save', '-'], code: 9, message: () => 'snippetkit: the bin server refused the save: Unable to save: The bin has no content' },
      { name: 'nothing to save', args: () => ['save'], code: 2, message: () => 'snippetkit: nothing to save: give FILE.html (or .js/.css), or --html/--js/--css FILE' },
    ];
    for (const c of cases) {
      it(`says what to do about ${c.name} (exit ${c.code})`, async () => {
        const result = await cli(c.args(), '   ');
        expect(result.code).to.equal(c.code);
        expect(result.stderr.trim()).to.equal(c.message());
        expect(result.stdout).to.equal('');
      });
    }

    it('prints the package version with --version and -V', async () => {
      const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
      for (const flag of ['--version', '-V']) expect(await runCli([flag])).to.deep.include({ code: 0, stdout: `${version}\n` });
    });

    it('offers no --api-key on mock commands, and sends no key to the mock server', async () => {
      expect((await runCli(['mock', 'list', '--help'])).stdout).not.to.include('--api-key');
      const result = await runCli(['mock', 'list', '--api-key', 'k3y', '--server', mocks.url]);
      expect([result.code, result.stderr]).to.deep.equal([2, "snippetkit: unknown option '--api-key' (see `snippetkit mock list --help`)\n"]);
    });

    it('saves with the key from --api-key or SNIPPETKIT_API_KEY', async () => {
      const flag = await cli(['save', '-', '--server', keyed.url, '--api-key', 'k3y'], 'x');
      const env = await cli(['save', '-', '--server', keyed.url], 'y', { SNIPPETKIT_API_KEY: 'k3y' });
      expect([flag.code, env.code]).to.deep.equal([0, 0]);
      expect(existsSync(join(temp.dir, 'keyed.sqlite'))).to.equal(true);
    });
  });
});

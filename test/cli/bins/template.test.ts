import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEYED, OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';
import { runCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

describe('snippetkit template', function () {
  this.timeout(60_000); // each test runs the CLI: seconds on a loaded 2-core machine
  let temp: ReturnType<typeof tempDir>;
  let server: TestBinServer;
  let keyed: TestBinServer;
  const cli = (args: string[], input?: string) => runCli(args, { SNIPPETKIT_BIN_SERVER: server.url }, input);

  before(async () => {
    temp = tempDir();
    [server, keyed] = await Promise.all([startBinServer(OPEN), startBinServer(KEYED)]);
  });
  after(async () => {
    await Promise.all([server.close(), keyed.close()]);
    temp.cleanup();
  });
  afterEach(() => server.store.clearTemplate());

  it('saves FILE.html with its same-named .css and .js as the template and prints where New starts', async () => {
    writeFileSync(join(temp.dir, 'start.html'), '<main>start</main>');
    writeFileSync(join(temp.dir, 'start.css'), 'main{}');
    writeFileSync(join(temp.dir, 'start.js'), 'go()');
    const result = await cli(['template', 'save', join(temp.dir, 'start.html')]);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.equal(`${server.url}/\n`);
    expect(result.stderr).to.include('took html from start.html, css from start.css, javascript from start.js');
    expect(await server.store.template()).to.deep.include({ html: '<main>start</main>', css: 'main{}', javascript: 'go()' });
  });

  it('takes the html from standard input and answers the template with --json', async () => {
    const result = await cli(['template', 'save', '-', '--json'], '<p>piped</p>');
    expect(result.code, result.stderr).to.equal(0);
    const answer = JSON.parse(result.stdout);
    expect(answer.url).to.equal(`${server.url}/`);
    expect(answer.template).to.deep.include({ html: '<p>piped</p>', css: '', javascript: '', settings: {} });
  });

  it('resets the template to the built-in starter', async () => {
    await server.store.setTemplate({ html: 'old', css: '', javascript: '', settings: {} });
    const result = await cli(['template', 'reset']);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.equal(`${server.url}/\n`);
    expect(await server.store.template()).to.equal(undefined);
  });

  it('says what the server refused, with its exit code', async () => {
    const result = await cli(['template', 'save', '-'], '   ');
    expect(result).to.deep.include({
      code: 9,
      stdout: '',
      stderr: 'snippetkit: the bin server refused the template: Unable to save: The bin has no content\n',
    });
  });

  it('is refused without the key where writes need one, as save is', async () => {
    const result = await runCli(['template', 'reset', '--server', keyed.url]);
    expect(result).to.deep.include({
      code: 5,
      stderr:
        'snippetkit: the bin server needs an API key (You need to provide a valid API key when using this API): pass --api-key KEY or set SNIPPETKIT_API_KEY\n',
    });
  });

  it('sends --api-key where writes need the key', async () => {
    const withKey = await runCli(['template', 'save', '-', '--server', keyed.url, '--api-key', 'sekrit-key'], {}, '<p>k</p>');
    expect(withKey.code, withKey.stderr).to.equal(0);
    expect((await keyed.store.template())?.html).to.equal('<p>k</p>');
  });
});

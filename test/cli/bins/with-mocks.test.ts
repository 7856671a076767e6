import { expect } from 'chai';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

// A sketch with its API (docs/bin-api.md): `save --with-mocks` keeps the endpoints the code calls with the
// revision, `pull --with-mocks` writes them as BIN.mocks.json, and `save DIR/BIN.html --with-mocks` on
// another joint server creates the missing ones there, reporting any of the same name and another shape.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CREW = { name: 'crew', path: 'crew/:id', statusCode: 200, data: { id: 1, name: 'Ada' }, delay: 0 };
const SKETCH_JS = "const res = await fetch('/endpoint/crew/1');\nconsole.log(await res.json());\nfetch(`/endpoint/nobody/${id}`);\n";

describe('snippetkit save and pull --with-mocks', function () {
  this.timeout(90_000); // three server processes and many CLI runs: seconds each on a loaded machine
  let temp: ReturnType<typeof tempDir>;
  let first: ServerProcess; // the joint server the sketch is made on
  let fresh: ServerProcess; // another joint server, with no endpoints at first
  let binsAlone: ServerProcess;
  let bin: string;
  let pulled: string; // the folder `pull --with-mocks` wrote

  const mockApi = (server: ServerProcess, path: string, init: RequestInit = {}) =>
    fetch(`${server.url}/mocks/api/${path}`, { ...init, headers: { 'content-type': 'application/json' } });
  const putEndpoint = async (server: ServerProcess, record: Record<string, unknown>) => {
    const res = await mockApi(server, `endpoint/${String(record.name)}`, { method: 'PUT', body: JSON.stringify(record) });
    expect(res.status, await res.clone().text()).to.be.oneOf([200, 201]);
  };
  const endpointNames = async (server: ServerProcess) =>
    ((await (await mockApi(server, 'endpoints')).json()) as { endpoints: { name: string }[] }).endpoints.map((e) => e.name);
  const readBin = async (server: ServerProcess, path: string): Promise<Json> => (await fetch(`${server.url}/api/${path}`)).json() as Promise<Json>;
  const binOf = (url: string) => url.trim().split('/').at(-2)!;

  before(async () => {
    temp = tempDir();
    const joint = (name: string) => ['serve', '--port', '0', '--bin-data', join(temp.dir, `${name}-b.sqlite`), '--mock-data', join(temp.dir, `${name}-m.sqlite`)];
    // Open servers: one that made its own key would leave it in the data folder this test process shares,
    // where the next test file's client commands would find and send it.
    const open = { SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true' };
    [first, fresh, binsAlone] = await Promise.all([
      // a longer --max-delay than a bin keeps: one endpoint below cannot travel
      startServerProcess([...joint('first'), '--max-delay', '300000'], open),
      startServerProcess(joint('fresh'), open),
      startServerProcess(['serve-bins', '--port', '0', '--data', join(temp.dir, 'alone.sqlite')], open),
    ]);
    await putEndpoint(first, CREW);
    await putEndpoint(first, { name: 'unrelated', data: [1, 2] });
    writeFileSync(join(temp.dir, 'sketch.html'), '<ul id="crew"></ul>\n');
    writeFileSync(join(temp.dir, 'sketch.js'), SKETCH_JS);
  });
  after(async () => {
    await Promise.all([first?.stop(), fresh?.stop(), binsAlone?.stop()]);
    temp?.cleanup();
  });

  it('saves the endpoints the code calls with the revision, and says which calls no endpoint answers', async () => {
    const saved = await runCli(['save', join(temp.dir, 'sketch.html'), '--with-mocks', '--server', first.url]);
    expect(saved.code, saved.stderr).to.equal(0);
    bin = binOf(saved.stdout);
    expect(saved.stderr).to.include(`the code calls /endpoint/nobody/\${id}, which no endpoint on ${first.url} answers`);
    expect(saved.stderr).to.include('with the mocks crew');
    const revision = await readBin(first, bin);
    expect(revision.mocks).to.deep.equal([CREW]);
    expect(revision.settings).to.deep.equal({});
  });

  it('prints the mocks it kept with --json', async () => {
    const saved = await runCli(['save', join(temp.dir, 'sketch.html'), '--with-mocks', '--server', first.url, '--json']);
    expect(saved.code, saved.stderr).to.equal(0);
    expect(JSON.parse(saved.stdout)).to.deep.include({ mocks: ['crew'], created: [] });
  });

  it('pulls the panels and BIN.mocks.json, which mock export would have written for those endpoints', async () => {
    pulled = join(temp.dir, 'pulled');
    const result = await runCli(['pull', `${bin}/1`, '--with-mocks', '--out', pulled, '--server', first.url]);
    expect(result.code, result.stderr).to.equal(0);
    expect(readdirSync(pulled).sort()).to.deep.equal([`${bin}.html`, `${bin}.js`, `${bin}.mocks.json`]);
    const exported = join(temp.dir, 'export.json');
    expect((await runCli(['mock', 'export', '--out', exported, '--server', first.url])).code).to.equal(0);
    const crewExported = (JSON.parse(readFileSync(exported, 'utf8')) as { name: string }[]).filter((r) => r.name === 'crew');
    expect(readFileSync(join(pulled, `${bin}.mocks.json`), 'utf8')).to.equal(`${JSON.stringify(crewExported, null, 2)}\n`);
  });

  it('carries the sketch and its API to a fresh server, where the output page\'s fetch of its endpoint answers', async () => {
    const saved = await runCli(['save', join(pulled, `${bin}.html`), '--with-mocks', '--server', fresh.url]);
    expect(saved.code, saved.stderr).to.equal(0);
    expect(saved.stderr).to.include(`with the mocks crew from ${bin}.mocks.json; created crew on ${fresh.url}`);
    const moved = binOf(saved.stdout);
    expect((await readBin(fresh, moved)).mocks).to.deep.equal([CREW]);
    // The output page carries the code as saved; the path it fetches answers on this origin.
    const page = await (await fetch(`${fresh.url}/${moved}/1`)).text();
    const called = /fetch\('(\/endpoint\/[^']+)'\)/.exec(page)?.[1];
    expect(called).to.equal('/endpoint/crew/1');
    const answer = await fetch(new URL(called!, fresh.url));
    expect(answer.status).to.equal(200);
    expect(await answer.json()).to.deep.equal({ id: 1, name: 'Ada' });
  });

  it('saves again where the same endpoints are there, identical, and creates nothing', async () => {
    const saved = await runCli(['save', join(pulled, `${bin}.html`), '--with-mocks', '--server', fresh.url, '--json']);
    expect(saved.code, saved.stderr).to.equal(0);
    expect(JSON.parse(saved.stdout)).to.deep.include({ mocks: ['crew'], created: [] });
    expect(await endpointNames(fresh)).to.deep.equal(['crew']);
  });

  it('reports an endpoint of the same name and another shape, changes nothing and saves nothing', async () => {
    await putEndpoint(fresh, { ...CREW, data: { id: 2, name: 'Grace' } });
    const result = await runCli(['save', join(pulled, `${bin}.html`), '--with-mocks', '--bin', 'clashing', '--server', fresh.url]);
    expect(result.code).to.equal(9);
    expect(result.stderr).to.equal(
      `snippetkit: an endpoint on ${fresh.url} has the name of one of the bin's mocks but another shape; nothing was saved or changed\n` +
        '  crew: the server\'s endpoint has another record; `snippetkit mock get crew` shows it\n',
    );
    expect(await (await fetch(`${fresh.url}/endpoint/crew/1`)).json()).to.deep.equal({ id: 2, name: 'Grace' });
    expect((await fetch(`${fresh.url}/api/clashing`)).status).to.equal(404);
  });

  it('reports a missing endpoint whose route another endpoint takes, and saves nothing', async () => {
    expect((await mockApi(fresh, 'endpoint/crew', { method: 'DELETE' })).status).to.equal(200);
    await putEndpoint(fresh, { name: 'people', path: 'crew/:who', data: [] });
    const result = await runCli(['save', join(pulled, `${bin}.html`), '--with-mocks', '--bin', 'overlapping', '--server', fresh.url]);
    expect(result.code).to.equal(9);
    expect(result.stderr).to.match(/^snippetkit: the mocks on http:\S+ refused the bin's mocks \(1 conflicts; nothing was imported.*\); nothing was saved or changed\n {2}crew: .*people/);
    expect(await endpointNames(fresh)).to.deep.equal(['people']);
    expect((await fetch(`${fresh.url}/api/overlapping`)).status).to.equal(404);
    expect((await mockApi(fresh, 'endpoint/people', { method: 'DELETE' })).status).to.equal(200);
  });

  it('takes back the endpoints it created when the bin server then refuses the save', async () => {
    const result = await runCli(['save', join(pulled, `${bin}.html`), '--with-mocks', '--bin', 'mocks', '--server', fresh.url]);
    expect(result.code).to.equal(9);
    expect(result.stderr).to.equal(
      'snippetkit: the bin server refused the save: mocks is a reserved word, not a bin id: choose another name; ' +
        'the endpoints it created (crew) are removed again\n',
    );
    expect(await endpointNames(fresh)).to.deep.equal([]);
  });

  it('refuses --with-mocks against a bin server alone, which has no endpoints, and saves nothing', async () => {
    const result = await runCli(['save', join(temp.dir, 'sketch.html'), '--with-mocks', '--bin', 'alone', '--server', binsAlone.url]);
    expect(result.code).to.equal(2);
    expect(result.stderr).to.equal(
      `snippetkit: --with-mocks needs the bins and their endpoints on one server, and ${binsAlone.url} has no mocks: ` +
        'start it with `snippetkit serve`, which runs the bins and the mocks on one port, or leave out --with-mocks\n',
    );
    expect((await fetch(`${binsAlone.url}/api/alone`)).status).to.equal(404);
  });

  it('refuses a save whose code calls no endpoint, as there are no mocks to keep', async () => {
    const page = join(temp.dir, 'plain.html');
    writeFileSync(page, '<p>no calls</p>');
    const result = await runCli(['save', page, '--with-mocks', '--server', first.url]);
    expect(result.code).to.equal(6);
    expect(result.stderr).to.equal(
      `snippetkit: the code calls no endpoint of ${first.url}, so there are no mocks to save; ` +
        'write its path as `/endpoint/…` in the html or javascript, or leave out --with-mocks\n',
    );
  });

  it('refuses an endpoint the code calls that a bin cannot keep, naming it, and saves nothing', async () => {
    await putEndpoint(first, { name: 'slow', data: 1, delay: 120_000 });
    const page = join(temp.dir, 'slow.html');
    writeFileSync(page, "<script>fetch('/endpoint/slow'); fetch('/endpoint/crew/2')</script>");
    const result = await runCli(['save', page, '--with-mocks', '--bin', 'slowly', '--server', first.url]);
    expect(result.code).to.equal(9);
    expect(result.stderr).to.equal(
      'snippetkit: 1 of the endpoints the code calls cannot be kept with a bin; nothing was saved\n' +
        '  slow: delay must be a number of milliseconds from 0 to 60000\n',
    );
    expect((await fetch(`${first.url}/api/slowly`)).status).to.equal(404);
  });

  it('refuses a BIN.mocks.json with an invalid record before anything is sent', async () => {
    const dir = join(temp.dir, 'broken');
    mkdirSync(dir);
    writeFileSync(join(dir, 'b.html'), "<script>fetch('/endpoint/crew/1')</script>");
    writeFileSync(join(dir, 'b.mocks.json'), JSON.stringify([CREW, { name: 'bad', path: 'a//b', data: 1 }, { name: 'crew', data: 2 }]));
    const result = await runCli(['save', join(dir, 'b.html'), '--with-mocks', '--server', fresh.url]);
    expect(result.code).to.equal(7);
    expect(result.stderr).to.equal(
      `snippetkit: 2 records in ${join(dir, 'b.mocks.json')} are invalid; nothing was saved\n` +
        `  ${join(dir, 'b.mocks.json')} #1 (bad): path: segment 2 is empty (two slashes in a row)\n` +
        `  ${join(dir, 'b.mocks.json')} #2 (crew): the name is given twice\n`,
    );
    expect(await endpointNames(fresh)).to.deep.equal([]);
  });

  it('imports BIN.mocks.json with mock import, as an export', async () => {
    const result = await runCli(['mock', 'import', join(pulled, `${bin}.mocks.json`), '--server', fresh.url]);
    expect(result.code, result.stderr).to.equal(0);
    expect(await (await fetch(`${fresh.url}/endpoint/crew/1`)).json()).to.deep.equal({ id: 1, name: 'Ada' });
  });

  it('clones a revision with its mocks', async () => {
    const cloned = await runCli(['clone', bin, '--server', first.url, '--json']);
    expect(cloned.code, cloned.stderr).to.equal(0);
    expect((await readBin(first, JSON.parse(cloned.stdout).bin)).mocks).to.deep.equal([CREW]);
  });

  it('points at BIN.mocks.json when a save leaves it out', async () => {
    const saved = await runCli(['save', join(pulled, `${bin}.html`), '--server', fresh.url]);
    expect(saved.code, saved.stderr).to.equal(0);
    expect(saved.stderr).to.include(`${bin}.mocks.json is beside it: pass --with-mocks to save its endpoints with the bin`);
    expect(Object.keys(await readBin(fresh, binOf(saved.stdout)))).to.not.include('mocks');
  });

  it('refuses to pull --with-mocks a revision saved without mocks, and writes nothing', async () => {
    const saved = await runCli(['save', join(temp.dir, 'sketch.html'), '--server', first.url]);
    const plain = binOf(saved.stdout);
    const out = join(temp.dir, 'nothing');
    const result = await runCli(['pull', plain, '--with-mocks', '--out', out, '--server', first.url]);
    expect(result.code).to.equal(6);
    expect(result.stderr).to.equal(
      `snippetkit: ${plain}/1 was saved without mocks; pull it without --with-mocks, ` +
        'or save it again with --with-mocks on the server that has its endpoints\n',
    );
    expect(existsSync(out)).to.equal(false);
  });

  it('refuses --stdout with --with-mocks', async () => {
    const result = await runCli(['pull', bin, '--with-mocks', '--stdout', 'js', '--server', first.url]);
    expect(result.code).to.equal(2);
    expect(result.stderr).to.equal('snippetkit: --stdout prints one panel; --with-mocks writes BIN.mocks.json beside the panels: use one of them\n');
  });

  it('shows --with-mocks and its examples in the help of save and pull', async () => {
    const save = await runCli(['save', '--help']);
    expect(save.stdout).to.include('--with-mocks').and.include('snippetkit save out/rovoqe.html --with-mocks --server http://other:3000');
    const pull = await runCli(['pull', '--help']);
    expect(pull.stdout).to.include('snippetkit pull rovoqe/2 --with-mocks --out sketch');
  });
});

import { expect } from 'chai';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runCli, startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

/** One endpoint with every field, as the record answer orders them. */
const EVERY_FIELD = {
  name: 'users',
  path: 'users/:id',
  methods: ['GET', 'PUT'],
  statusCode: 201,
  data: {
    id: '{{params.id}}',
    who: "{{faker 'person.fullName'}}",
    zoë: 'é☃ 😀',
    nested: [1, null, { b: true }],
  },
  delay: { min: 1, max: 5 },
  headers: { 'X-Id': '{{params.id}}' },
  template: true,
  responses: [
    { when: { query: { q: ['x', 'y'] } }, statusCode: 404, body: 'none for {{query.q}}\n' },
    { when: { method: ['PUT'] }, data: { saved: true }, delay: 2 },
  ],
  pick: 'first-match',
  fault: 'reset',
  faultRate: 0.25,
};
const TEXT_BODY = {
  name: 'feed',
  statusCode: 200,
  body: '<feed>\n  <title>Ünïcode ✓</title>\n</feed>\n',
  delay: 0,
};
const PLAIN = { name: 'a-first', statusCode: 200, data: 'just a string', delay: 0 };

describe('snippetkit mock export and import', function () {
  this.timeout(60_000); // several CLI runs per test: seconds each on a loaded 2-core machine
  let temp: ReturnType<typeof tempDir>;
  let source: ServerProcess;
  let target: ServerProcess;
  const cli = (server: ServerProcess, args: string[]) => runCli(['mock', ...args, '--server', server.url]);
  const path = (name: string) => join(temp.dir, name);
  const targetNames = async () =>
    ((await (await fetch(`${target.url}/api/endpoints`)).json()) as { endpoints: { name: string }[] }).endpoints.map(
      (e) => e.name,
    );

  before(async () => {
    temp = tempDir();
    const serve = (file: string) => startServerProcess(['serve-mocks', '--port', '0', '--data', path(file)]);
    [source, target] = await Promise.all([serve('source.sqlite'), serve('target.sqlite')]);
    for (const record of [EVERY_FIELD, TEXT_BODY, PLAIN]) {
      const res = await fetch(`${source.url}/api/endpoint/add`, { method: 'PUT', body: JSON.stringify(record) });
      expect(res.status, await res.text()).to.equal(201);
    }
  });
  beforeEach(async () => {
    for (const name of await targetNames()) await fetch(`${target.url}/api/endpoint/${name}`, { method: 'DELETE' });
  });
  after(async () => {
    await Promise.all([source?.stop(), target?.stop()]);
    temp.cleanup();
  });

  /** Exports `from` with `args`, and the result must succeed. */
  async function exported(from: ServerProcess, args: string[]): Promise<string> {
    const run = await cli(from, ['export', ...args]);
    expect(run.code, run.stderr).to.equal(0);
    return run.stdout;
  }

  async function imported(args: string[]): Promise<void> {
    const run = await cli(target, ['import', ...args]);
    expect(run.code, run.stderr).to.equal(0);
  }

  it('prints every endpoint, sorted by name, with every field and nothing the server sets', async () => {
    expect(JSON.parse(await exported(source, []))).to.deep.equal([PLAIN, TEXT_BODY, EVERY_FIELD]);
  });

  it('round-trips through a JSON file byte for byte', async () => {
    const first = await exported(source, []);
    writeFileSync(path('all.json'), first);
    await imported([path('all.json')]);
    expect(await exported(target, [])).to.equal(first);
    expect(first.endsWith('}\n]\n')).to.equal(true);
  });

  it('round-trips through a YAML file byte for byte, the text body as a block', async () => {
    await exported(source, ['--out', path('all.yaml')]);
    const first = readFileSync(path('all.yaml'), 'utf8');
    expect(first).to.include('  body: |\n    <feed>\n      <title>Ünïcode ✓</title>\n    </feed>\n');
    expect(parse(first)).to.deep.equal([PLAIN, TEXT_BODY, EVERY_FIELD]);
    await imported([path('all.yaml')]);
    expect(await exported(target, ['--format', 'yaml'])).to.equal(first);
  });

  it('writes a folder of <name>.json files without the name, and round-trips it byte for byte', async () => {
    await exported(source, ['--out', path('mocks')]);
    expect(readdirSync(path('mocks')).sort()).to.deep.equal(['a-first.json', 'feed.json', 'users.json']);
    const { name: _name, ...users } = EVERY_FIELD;
    const first = readFileSync(path('mocks/users.json'), 'utf8');
    expect(first).to.equal(`${JSON.stringify(users, null, 2)}\n`);
    await imported([path('mocks')]);
    await exported(target, ['--out', path('again')]);
    for (const file of readdirSync(path('mocks'))) {
      expect(readFileSync(path(`again/${file}`), 'utf8'), file).to.equal(readFileSync(path(`mocks/${file}`), 'utf8'));
    }
  });

  it('reads a folder recursively, YAML and JSON, one record or a list per file', async () => {
    mkdirSync(path('mixed/deeper'), { recursive: true });
    writeFileSync(path('mixed/one.yml'), 'data: {ok: true}\n');
    writeFileSync(path('mixed/deeper/list.json'), '[{"name": "two", "data": 2}, {"name": "three", "body": "3"}]');
    writeFileSync(path('mixed/notes.txt'), 'not a record');
    await imported([path('mixed')]);
    expect(await targetNames()).to.deep.equal(['one', 'three', 'two']);
  });

  it('reports a YAML syntax error with file, line and column, and sends nothing', async () => {
    mkdirSync(path('broken'));
    writeFileSync(path('broken/good.json'), '{"data": 1}');
    writeFileSync(path('broken/bad.yaml'), 'data:\n  a: 1\n  a: 2\n');
    const run = await cli(target, ['import', path('broken')]);
    expect(run.code).to.equal(7);
    expect(run.stderr).to.equal(
      'snippetkit: 1 files do not parse; nothing was sent\n' +
        `  ${path('broken/bad.yaml')} is not valid YAML: Map keys must be unique at line 3, column 3\n`,
    );
    expect(await targetNames()).to.deep.equal([]);
  });

  it('reports a JSON syntax error with line and column', async () => {
    writeFileSync(path('bad.json'), '[\n  {"name": "x", "data": 1},\n  {"name": "y" "data": 2}\n]\n');
    const run = await cli(target, ['import', path('bad.json')]);
    expect(run.code).to.equal(7);
    expect(run.stderr).to.include(`${path('bad.json')} is not valid JSON: expected`);
    expect(run.stderr).to.include('at line 3, column 16');
    expect(await targetNames()).to.deep.equal([]);
  });

  it('lists every name that exists, with its file, writes nothing, and replaces them all with --replace', async () => {
    await exported(source, ['--out', path('conflicts')]);
    await fetch(`${target.url}/api/endpoint/feed`, { method: 'PUT', body: '{"data": "old"}' });
    await fetch(`${target.url}/api/endpoint/users`, { method: 'PUT', body: '{"data": "old", "path": "old"}' });
    const run = await cli(target, ['import', path('conflicts')]);
    expect(run.code).to.equal(9);
    expect(run.stderr).to.equal(
      'snippetkit: the mock server refused the import: 2 conflicts; nothing was imported ' +
        '(replace: true replaces endpoints of the same name)\n' +
        `  ${path('conflicts/feed.json')} (feed): an endpoint named 'feed' already exists\n` +
        `  ${path('conflicts/users.json')} (users): an endpoint named 'users' already exists\n`,
    );
    expect(await targetNames()).to.deep.equal(['feed', 'users']);

    await imported([path('conflicts'), '--replace']);
    expect(await exported(target, [])).to.equal(await exported(source, []));
  });

  it('lists invalid records with their file and place in the list, where each must name itself', async () => {
    const records = '[{"name": "ok", "data": 1}, {"name": "late", "data": 1, "delay": -1}, {"data": 3}]';
    writeFileSync(path('invalid.json'), records);
    const run = await cli(target, ['import', path('invalid.json')]);
    expect(run.code).to.equal(9);
    expect(run.stderr).to.equal(
      'snippetkit: the mock server refused the import: 2 of 3 records are invalid\n' +
        `  ${path('invalid.json')} #1 (late): delay must be a number of milliseconds from 0 to 60000\n` +
        `  ${path('invalid.json')} #2: name is required\n`,
    );
  });

  it('leaves out endpoints served from files (--dir), saying so', async () => {
    mkdirSync(path('served/users'), { recursive: true });
    writeFileSync(path('served/users/list.yaml'), 'data: [1, 2]\n');
    const server = await startServerProcess(
      ['serve-mocks', '--port', '0', '--data', path('served.sqlite'), '--dir', path('served')],
    );
    try {
      const res = await fetch(`${server.url}/api/endpoint/add`, { method: 'PUT', body: JSON.stringify(PLAIN) });
      expect(res.status, await res.text()).to.equal(201);
      const run = await cli(server, ['export', '--out', path('from-served')]);
      expect(run.code, run.stderr).to.equal(0);
      expect(readdirSync(path('from-served'))).to.deep.equal(['a-first.json']);
      expect(run.stderr).to.include('left out 1 endpoints served from files (--dir)');
    } finally {
      await server.stop();
    }
  });
});

import { expect } from 'chai';
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCli, startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/until.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// These run the built CLI (bin/snippetkit.js -> dist/): `npm run build` first.
describe('serve-mocks --dir (endpoint files, watched)', function () {
  this.timeout(30_000);
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess | undefined;
  let mocks: string;
  beforeEach(() => {
    temp = tempDir();
    mocks = join(temp.dir, 'mocks');
    mkdirSync(mocks);
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    temp.cleanup();
  });

  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(mocks, rel)), { recursive: true });
    writeFileSync(join(mocks, rel), text);
  };
  const start = async (...more: string[]) => {
    const args = ['serve-mocks', '--port', '0', '--data', join(temp.dir, 'data.sqlite'), ...more];
    server = await startServerProcess(args);
    return server;
  };
  const json = async (path: string, init?: RequestInit) =>
    (await (await fetch(server!.url + path, init)).json()) as Json;
  const served = async (path: string) => {
    const res = await fetch(`${server!.url}/endpoint/${path}`);
    return { status: res.status, text: await res.text() };
  };
  /** Polls until /endpoint/<path> answers `text`; gives the milliseconds it took. */
  const servedSoon = (path: string, text: string) => until(async () => (await served(path)).text === text, 10_000);

  it('serves YAML and JSON files of nested folders, one record or a list, named after the file', async () => {
    write('users/list.yaml', 'data:\n  - id: 1\n');
    write('orders.json', '[{"name":"order","path":"orders/:id","data":{"id":"{{params.id}}"},"template":true},'
      + '{"name":"orders/all","data":[]}]');
    write('notes.txt', 'not a record file');
    await start('--dir', mocks);
    expect(server!.banner).to.include('3 endpoints  (3 from files in');
    expect(await served('users/list')).to.deep.equal({ status: 200, text: '[{"id":1}]' });
    expect(await served('orders/7')).to.deep.equal({ status: 200, text: '{"id":"7"}' });
    const one = await json('/api/endpoint/users%2Flist');
    expect(one.source).to.equal(`file:${mocks}/users/list.yaml`);
    const list = (await json('/api/endpoints')).endpoints as Json[];
    expect(list.map((e) => [e.name, e.source])).to.deep.equal([
      ['order', `file:${mocks}/orders.json`],
      ['orders/all', `file:${mocks}/orders.json`],
      ['users/list', `file:${mocks}/users/list.yaml`],
    ]);
  });

  // How soon is bench/dir.js's figure (a change from write to served); here, that each one is applied.
  it('applies a file added, changed and removed and prints each', async () => {
    await start('--dir', mocks);
    write('a/new.yaml', 'data: 1\n');
    await servedSoon('a/new', '1');
    write('a/new.yaml', 'data: 2\n');
    await servedSoon('a/new', '2');
    rmSync(join(mocks, 'a/new.yaml'));
    await until(async () => (await served('a/new')).status === 404);
    await until(() => server!.stderr().includes(`- a/new (${mocks}/a/new.yaml)`));
    expect(server!.stderr()).to.include(`+ a/new (${mocks}/a/new.yaml)`);
    expect(server!.stderr()).to.include(`~ a/new (${mocks}/a/new.yaml)`);
  });

  it('follows an editor\'s save-by-rename and a folder moved in', async () => {
    write('page.json', '{"data":"old"}');
    await start('--dir', mocks);
    writeFileSync(join(mocks, '.page.json.swp'), '{"data":"new"}');
    renameSync(join(mocks, '.page.json.swp'), join(mocks, 'page.json'));
    await servedSoon('page', '"new"');
    const outside = join(temp.dir, 'outside');
    mkdirSync(join(outside, 'deep'), { recursive: true });
    writeFileSync(join(outside, 'deep', 'x.yml'), 'data: moved\n');
    renameSync(outside, join(mocks, 'moved'));
    await servedSoon('moved/deep/x', '"moved"');
  });

  it('keeps the last good version of a file that fails, and reports file, line, column and field', async () => {
    const trio = ['- name: one', '  data: 1', '- name: two', '  data: 2', '- name: three', '  data: 3', ''];
    write('trio.yaml', trio.join('\n'));
    await start('--dir', mocks);
    write('trio.yaml', ['- name: one', '  data: 10', '- name: two', '  statusCode: 999', '  data: 20', '- name: three',
      '  data: 30', ''].join('\n'));
    await until(async () => ((await json('/api/sources')).errors as Json[]).length === 1);
    const { errors } = await json('/api/sources');
    expect(errors).to.deep.equal([{
      source: `file:${mocks}/trio.yaml`,
      file: `${mocks}/trio.yaml`,
      message: 'statusCode must be an integer from 200 to 599',
      line: 4,
      column: 15,
      field: 'statusCode',
      index: 1,
    }]);
    expect(server!.stderr()).to.include(`${mocks}/trio.yaml:4:15: statusCode must be an integer from 200 to 599`);
    for (const [name, data] of [['one', '1'], ['two', '2'], ['three', '3']]) {
      expect((await served(name!)).text).to.equal(data);
    }
    write('trio.yaml', '- name: one\n  data: 1\n- {name: two, data: 2\n');
    await until(async () => ((await json('/api/sources')).errors as Json[])[0]?.message.startsWith('not valid YAML'));
    const syntax = (await json('/api/sources')).errors[0] as Json;
    expect([syntax.line, syntax.column]).to.deep.equal([4, 1]);
    write('trio.yaml', '- name: one\n  data: 100\n');
    await servedSoon('one', '100');
    await until(async () => ((await json('/api/sources')).errors as Json[]).length === 0);
    expect((await served('two')).status).to.equal(404);
  });

  it('reports a JSON syntax error with its line and column', async () => {
    write('broken.json', '{\n  "data": [1,\n}\n');
    await start('--dir', mocks);
    const { errors } = await json('/api/sources');
    expect(errors).to.have.length(1);
    expect(errors[0]).to.include({ file: `${mocks}/broken.json`, line: 3, column: 1 });
    expect(errors[0].message).to.match(/^not valid JSON: /);
  });

  it('refuses to change or delete a file endpoint through the API, naming the file (409)', async () => {
    write('users/list.yaml', 'data: []\n');
    write('plain.json', '{"data":[]}');
    await start('--dir', mocks);
    const message = `endpoint 'users/list' comes from file:${mocks}/users/list.yaml: change or delete it there`;
    const headers = { 'content-type': 'application/json' };
    const del = await fetch(`${server!.url}/api/endpoint/users%2Flist`, { method: 'DELETE' });
    expect([del.status, ((await del.json()) as Json).message]).to.deep.equal([409, message]);
    const endpoints = [{ name: 'fresh', data: 1 }, { name: 'plain', data: 1 }];
    const body = JSON.stringify({ endpoints, replace: true });
    const imported = await fetch(`${server!.url}/api/endpoints/import`, { method: 'POST', headers, body });
    expect(imported.status).to.equal(409);
    expect(JSON.stringify(await imported.json())).to.include(`comes from file:${mocks}/plain.json`);
    expect((await served('plain')).text).to.equal('[]');
    // all or nothing: the record before it was not written either
    expect((await served('fresh')).status).to.equal(404);
  });

  it('keeps hits across a restart, and keeps file records out of the data file', async () => {
    write('counted.json', '{"data":1}');
    await start('--dir', mocks);
    await served('counted');
    await served('counted');
    await server!.stop();
    await start('--dir', mocks);
    expect((await json('/api/endpoint/counted')).hits).to.equal(2);
    await server!.stop();
    await start();
    expect((await served('counted')).status).to.equal(404);
  });

  it('refuses a file whose name an API endpoint holds, and keeps the API endpoint', async () => {
    await start('--dir', mocks);
    const headers = { 'content-type': 'application/json' };
    const made = await fetch(`${server!.url}/api/endpoint/taken`, { method: 'PUT', headers, body: '{"data":"api"}' });
    expect(made.status).to.equal(201);
    write('taken.json', '{"data":"file"}');
    await until(async () => ((await json('/api/sources')).errors as Json[]).length === 1);
    const { errors } = await json('/api/sources');
    const message = "name 'taken' is taken by an endpoint made through the API";
    expect(errors[0]).to.include({ field: 'name', message });
    expect((await served('taken')).text).to.equal('"api"');
  });

  it('refuses a file past --max-body unread, and does not follow a linked folder (no loop)', async () => {
    write('big.json', `{"data":"${'x'.repeat(2000)}"}`);
    write('small.json', '{"data":1}');
    symlinkSync(mocks, join(mocks, 'loop'));
    await start('--dir', mocks, '--max-body', '1kb');
    expect((await served('small')).text).to.equal('1');
    expect((await served('big')).status).to.equal(404);
    expect(server!.stderr()).to.include('at most 1024 are read (--max-body)');
    expect(server!.stderr()).to.include('a linked folder is not followed');
  });

  it('refuses a linked file that leads outside the folder, at start and when added, and reports it', async () => {
    writeFileSync(join(temp.dir, 'secret.json'), '{"data":"the secret"}');
    write('inside.json', '{"data":"inside"}');
    symlinkSync(join(temp.dir, 'secret.json'), join(mocks, 'stolen.json'));
    // A link to a file in the folder is read: it stays inside.
    symlinkSync(join(mocks, 'inside.json'), join(mocks, 'alias.json'));
    await start('--dir', mocks);
    expect(await served('alias')).to.deep.equal({ status: 200, text: '"inside"' });
    expect((await served('stolen')).status).to.equal(404);
    const why = `it leads outside ${mocks} through a link`;
    expect(server!.stderr()).to.include(`! ${mocks}/stolen.json: ${why}`);
    symlinkSync(join(temp.dir, 'secret.json'), join(mocks, 'later.json'));
    await until(async () => ((await json('/api/sources')).errors as Json[]).length === 2);
    const { errors } = await json('/api/sources');
    expect(errors.map((e: Json) => [e.file, e.message])).to.deep.equal([
      [`${mocks}/later.json`, why],
      [`${mocks}/stolen.json`, why],
    ]);
    expect((await served('later')).status).to.equal(404);
    expect(JSON.stringify(await json('/api/endpoints'))).to.not.include('the secret');
  });

  it('reads at most --max-endpoints files, and says how many it left out', async () => {
    for (const name of ['a', 'b', 'c']) write(`${name}.json`, '{"data":1}');
    await start('--dir', mocks, '--max-endpoints', '2');
    expect(((await json('/api/endpoints')).endpoints as Json[]).map((e) => e.name)).to.deep.equal(['a', 'b']);
    expect(server!.stderr()).to.include(`1 file under ${mocks} left out: at most 2 files are read`);
  });

  it('stops at start-up with one line when the folder does not exist', async () => {
    const result = await runCli(['serve-mocks', '--port', '0', '--dir', join(temp.dir, 'nope')]);
    expect(result.code).to.equal(2);
    expect(result.stderr.trim()).to.equal(`snippetkit: --dir ${join(temp.dir, 'nope')}: no such folder`);
  });
});

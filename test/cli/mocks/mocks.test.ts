import { expect } from 'chai';
import { join } from 'node:path';
import { runCli, spawnCli, startServerProcess, useMockProcess } from '../../helpers/cli.js';

describe('snippetkit mock', function () {
  this.timeout(60_000); // tests run the CLI several times: seconds each on a loaded 2-core machine
  const server = useMockProcess();
  const cli = (args: string[], input?: string) => runCli(args, { SNIPPETKIT_MOCK_SERVER: server.url }, input);

  it('adds an endpoint from a file that is then served with its status, delay and header', async () => {
    const file = server.file('users.json', '{"users":[{"name":"Zoë"}]}');
    const added = await cli(['mock', 'add', 'users', file, '--status', '202', '--delay', '300', '--header', 'X-Mock: yes']);
    expect(added.code, added.stderr).to.equal(0);
    expect(added.stdout.trim()).to.equal(`${server.url}/endpoint/users`);
    const started = performance.now();
    const res = await fetch(`${server.url}/endpoint/users`);
    const elapsed = performance.now() - started;
    expect(res.status).to.equal(202);
    expect(res.headers.get('x-mock')).to.equal('yes');
    expect(await res.json()).to.deep.equal({ users: [{ name: 'Zoë' }] });
    expect(elapsed).to.be.at.least(295).and.below(3000);
  });

  it('refuses a name in use unless --force, which replaces it', async () => {
    const file = server.file('v1.json', '[1]');
    await cli(['mock', 'add', 'again', file]);
    const refused = await cli(['mock', 'add', 'again', server.file('v2.json', '[2]')]);
    expect(refused.code).to.equal(9);
    expect(refused.stderr.trim()).to.equal('snippetkit: an endpoint named again already exists; pass --force to replace it');
    expect(await (await fetch(`${server.url}/endpoint/again`)).json()).to.deep.equal([1]);
    expect((await cli(['mock', 'add', 'again', join(server.dir, 'v2.json'), '--force'])).code).to.equal(0);
    expect(await (await fetch(`${server.url}/endpoint/again`)).json()).to.deep.equal([2]);
  });

  it('reads the data from standard input with -', async () => {
    const added = await cli(['mock', 'add', 'piped', '-', '--json'], '{"from":"stdin"}');
    expect(JSON.parse(added.stdout)).to.include({ url: `${server.url}/endpoint/piped`, created: true, statusCode: 200, delay: 0 });
    expect(await (await fetch(`${server.url}/endpoint/piped`)).json()).to.deep.equal({ from: 'stdin' });
  });

  it('says where invalid JSON is, by line and column, and registers nothing', async () => {
    const file = server.file('broken.json', '{\n  "a": 1\n  "b": 2\n}');
    const result = await cli(['mock', 'add', 'broken', file]);
    expect(result.code).to.equal(7);
    expect(result.stderr.trim()).to.equal(`snippetkit: ${file} is not valid JSON: expected ',' or '}' but found '"' at line 3, column 3`);
    expect((await fetch(`${server.url}/endpoint/broken`)).status).to.equal(404);
  });

  it('places an error that JSON.parse gives no position for (not at the end of the file)', async () => {
    const file = server.file('unplaced.json', '[\n  1,\n  x\n]\n\n\n\n');
    const result = await cli(['mock', 'add', 'unplaced', file]);
    expect(result.code).to.equal(7);
    expect(result.stderr.trim()).to.equal(`snippetkit: ${file} is not valid JSON: expected a value but found 'x' at line 3, column 3`);
  });

  it('passes the server\'s refusal of bad input on, naming the field', async () => {
    const result = await cli(['mock', 'add', 'bad name!', server.file('ok.json', '{}')]);
    expect(result.code).to.equal(9);
    expect(result.stderr).to.match(/^snippetkit: the mock server refused it: .*name/);
  });

  it('lists, gets and removes endpoints', async () => {
    await cli(['mock', 'add', 'listed', server.file('l.json', '{"n":1}'), '--status', '201']);
    const list = JSON.parse((await cli(['mock', 'list', '--json'])).stdout) as { name: string; statusCode: number }[];
    expect(list.find((e) => e.name === 'listed')).to.include({ statusCode: 201 });
    const table = (await cli(['mock', 'list'])).stdout;
    expect(table.split('\n')[0]).to.match(/^NAME\s+PATH\s+METHODS\s+STATUS\s+DELAY\s+HITS\s+UPDATED\s+URL$/);
    expect(table).to.match(/\nlisted\s+listed\s+all\s+201\s+0 ms\s+0 /);
    const got = JSON.parse((await cli(['mock', 'get', 'listed', '--json'])).stdout);
    expect(got).to.include({ name: 'listed', statusCode: 201 });
    expect(got.data).to.deep.equal({ n: 1 });
    const removed = await cli(['mock', 'rm', 'listed']);
    expect(removed.stdout.trim()).to.equal('deleted listed');
    const gone = await cli(['mock', 'get', 'listed']);
    expect(gone.code).to.equal(6);
    expect(gone.stderr.trim()).to.equal(`snippetkit: no endpoint named listed at ${server.url}; \`snippetkit mock list\` shows them`);
  });

  it('prints the requests an endpoint received, newest last', async () => {
    await cli(['mock', 'add', 'hook', server.file('h.json', '{}')]);
    await fetch(`${server.url}/endpoint/hook?first=1`, { method: 'POST', body: '{"event":"one"}', headers: { 'content-type': 'application/json' } });
    await fetch(`${server.url}/endpoint/hook?second=2`, { method: 'PUT', body: 'plain text' });
    const log = JSON.parse((await cli(['mock', 'log', 'hook', '--json'])).stdout) as { method: string; url: string; body: string }[];
    expect(log.map((r) => [r.method, r.url, r.body])).to.deep.equal([
      ['POST', '/endpoint/hook?first=1', '{"event":"one"}'],
      ['PUT', '/endpoint/hook?second=2', 'plain text'],
    ]);
    const text = (await cli(['mock', 'log', 'hook'])).stdout;
    expect(text.indexOf('POST /endpoint/hook?first=1')).to.be.below(text.indexOf('PUT /endpoint/hook?second=2'));
    expect(text).to.include('"event": "one"');
  });

  it('follows the log so far, then new requests, with --follow', async () => {
    await cli(['mock', 'add', 'followed', server.file('f.json', '{}')]);
    await fetch(`${server.url}/endpoint/followed?n=0`);
    const following = spawnCli(['mock', 'log', 'followed', '--follow', '--json', '--server', server.url]);
    const lines = (out: string) => out.split('\n').filter(Boolean);
    try {
      // the log so far is printed once the stream is open, so what follows arrives live
      await following.waitForStdout((out) => lines(out).length >= 1);
      await fetch(`${server.url}/endpoint/followed?n=1`);
      await fetch(`${server.url}/endpoint/followed?n=2`, { method: 'DELETE' });
      const out = await following.waitForStdout((text) => lines(text).length >= 3);
      expect(lines(out).map((l) => JSON.parse(l) as { method: string; url: string }).map((l) => `${l.method} ${l.url}`)).to.deep.equal([
        'GET /endpoint/followed?n=0',
        'GET /endpoint/followed?n=1',
        'DELETE /endpoint/followed?n=2',
      ]);
    } finally {
      following.child.kill();
    }
  });

  it('says so when --follow names an unknown endpoint', async () => {
    const result = await cli(['mock', 'log', 'nosuch', '--follow']);
    expect(result.code).to.equal(6);
    expect(result.stderr.trim()).to.equal(`snippetkit: no endpoint named nosuch at ${server.url}; \`snippetkit mock list\` shows them`);
  });

  it('ends --follow with exit code 4 when the server stops', async () => {
    const own = await startServerProcess(['serve-mocks', '--port', '0', '--data', join(server.dir, 'own.sqlite')]);
    await fetch(`${own.url}/api/endpoint/add`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name":"w","data":1}' });
    await fetch(`${own.url}/endpoint/w`);
    const following = spawnCli(['mock', 'log', 'w', '--follow', '--server', own.url]);
    await following.waitForStdout((out) => out.includes('GET /endpoint/w'));
    await own.stop();
    const result = await following.done;
    expect(result.code).to.equal(4);
    expect(result.stderr.trim()).to.equal(`snippetkit: the mock server at ${own.url} closed the stream (stopped?)`);
  });

  it('says the mock server is not running, and how to start it', async () => {
    const result = await runCli(['mock', 'list', '--server', 'http://127.0.0.1:1']);
    expect(result.code).to.equal(4);
    expect(result.stderr).to.include('start one with `snippetkit serve-mocks`');
  });

  it('has help with an example on every mock command', async () => {
    for (const command of ['add', 'list', 'get', 'rm', 'log']) {
      const help = await runCli(['mock', command, '--help']);
      expect(help.code, command).to.equal(0);
      expect(help.stdout, command).to.match(/Examples?:\n\s+\$ snippetkit mock /);
    }
  });
});

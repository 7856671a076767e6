import { expect } from 'chai';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, spawnCli, startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';
import { openSocket } from '../../mocks/streams/socket-client.js';

// WebSocket and event-stream endpoints in a real serve-mocks process: from --dir files, `mock send`,
// `mock log` (and --follow) naming each connection's events, and `mock export`/`import` round trips.

const CHAT = { name: 'chat', kind: 'websocket', onConnect: [{ data: 'welcome' }], responses: [{ when: { text: 'ping' }, data: 'pong' }] };
const TICKS = { name: 'ticks', kind: 'sse', loop: true, events: [{ event: 'tick', data: { n: '{{query.n}}' }, id: '1', delay: 100 }] };

describe('snippetkit serve-mocks: WebSocket and event-stream endpoints', function () {
  this.timeout(60_000); // a server process and CLI runs: seconds each on a loaded 2-core machine
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    temp = tempDir();
    mkdirSync(join(temp.dir, 'mocks'));
    writeFileSync(join(temp.dir, 'mocks', 'chat.json'), JSON.stringify(CHAT));
    writeFileSync(join(temp.dir, 'mocks', 'ticks.yaml'), 'kind: sse\nloop: true\nevents:\n  - event: tick\n    data: { n: "{{query.n}}" }\n    id: "1"\n    delay: 100\n');
    server = await startServerProcess(['serve-mocks', '--port', '0', '--data', join(temp.dir, 'm.sqlite'), '--dir', join(temp.dir, 'mocks')]);
    env = { SNIPPETKIT_MOCK_SERVER: server.url, NO_COLOR: '1' };
  });
  after(async () => {
    await server?.stop();
    temp?.cleanup();
  });

  it('serves a WebSocket endpoint from a --dir file, sends with `mock send`, and `mock log --follow` shows each event', async () => {
    const follow = spawnCli(['mock', 'log', 'chat', '--follow'], env);
    try {
      const socket = await openSocket(`${server.url}/endpoint/chat`);
      expect(await socket.next()).to.equal('welcome');
      socket.send('ping');
      expect(await socket.next()).to.equal('pong');
      const sent = await runCli(['mock', 'send', 'chat', '{"notice":"deploying"}'], env);
      expect([sent.code, sent.stdout.trim()]).to.deep.equal([0, 'sent to 1 open connection of chat']);
      expect(await socket.next()).to.equal('{"notice":"deploying"}');
      const seen = await follow.waitForStdout((out) => out.includes('connection all out'));
      expect(seen).to.match(/GET \/endpoint\/chat {2}→ connection \d+ open\n {2}sec-websocket-version: 13/);
      expect(seen).to.match(/→ connection \d+ in\n(.|\n)*ping/);
      expect(seen).to.match(/→ connection \d+ out\n(.|\n)*pong/);
      socket.close();
      await socket.closed;
    } finally {
      follow.child.kill();
    }
    const refused = await runCli(['mock', 'send', 'nothing', 'x'], env);
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.include('no endpoint named nothing');
  });

  it('serves an event-stream endpoint from a YAML file, its data a template over the request', async () => {
    const res = await fetch(`${server.url}/endpoint/ticks?n=7`);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('data: {"n":"7"}')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).to.include('id: 1\nevent: tick\ndata: {"n":"7"}\n\n');
    await reader.cancel();
  });

  it('round-trips both kinds through `mock export` and `mock import`', async () => {
    // Export writes the endpoints made through the API (those of files are in their files).
    for (const record of [CHAT, TICKS]) {
      const res = await fetch(`${server.url}/api/endpoint/api-${record.name}`, { method: 'PUT', body: JSON.stringify({ ...record, name: undefined, path: `api/${record.name}` }) });
      expect(res.status, await res.text()).to.equal(201);
    }
    const file = join(temp.dir, 'all.json');
    const exported = await runCli(['mock', 'export', '--out', file], env);
    expect(exported.code, exported.stderr).to.equal(0);
    const records = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>[];
    const { name: _chat, ...chat } = CHAT;
    const { name: _ticks, ...ticks } = TICKS;
    expect(records).to.deep.equal([
      { name: 'api-chat', path: 'api/chat', ...chat },
      { name: 'api-ticks', path: 'api/ticks', ...ticks },
    ]);
    expect((await runCli(['mock', 'reset'], env)).code).to.equal(0);
    const imported = await runCli(['mock', 'import', file], env);
    expect(imported.code, imported.stderr).to.equal(0);
    const socket = await openSocket(`${server.url}/endpoint/api/chat`);
    expect(await socket.next()).to.equal('welcome');
    socket.close();
  });

  it('prints a stream endpoint\'s kind and script with `mock get`', async () => {
    const got = await runCli(['mock', 'get', 'chat'], env);
    expect(got.code, got.stderr).to.equal(0);
    expect(got.stdout).to.match(/^chat {2}websocket {2}connections \d+\n/);
    expect(got.stdout).to.include('"onConnect": [');
  });

  it('accepts WebSocket connections on the joint `snippetkit serve` too', async () => {
    const joint = await startServerProcess(
      ['serve', '--port', '0', '--bin-data', join(temp.dir, 'b.sqlite'), '--mock-data', join(temp.dir, 'j.sqlite')],
      { XDG_DATA_HOME: join(temp.dir, 'data') },
    );
    try {
      const added = await fetch(`${joint.url}/mocks/api/endpoint/joint`, { method: 'PUT', body: JSON.stringify({ kind: 'websocket', onConnect: [{ data: 'on serve' }] }) });
      expect(added.status, await added.text()).to.equal(201);
      const socket = await openSocket(`${joint.url}/endpoint/joint`);
      expect(await socket.next()).to.equal('on serve');
      socket.close();
      await socket.closed;
    } finally {
      await joint.stop();
    }
  });
});

import { expect } from 'chai';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli, startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/until.js';

// serve-mocks' --callback-host and --callback-timeout, and `mock log` printing each callback's result.
describe('snippetkit serve-mocks: callbacks, and mock log showing them', function () {
  this.timeout(60_000); // each CLI run takes seconds on a loaded 2-core machine
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess | undefined;
  beforeEach(() => (temp = tempDir()));
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    temp.cleanup();
  });

  it('names the allowed hosts at start, sends to loopback, and prints status and time or the refusal', async () => {
    const heard: string[] = [];
    const receiver = createServer((req, res) => {
      heard.push(`${req.method} ${req.url}`);
      res.writeHead(201).end();
    }).listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const { port } = receiver.address() as AddressInfo;
    try {
      const data = join(temp.dir, 'mocks.sqlite');
      server = await startServerProcess(['serve-mocks', '--port', '0', '--data', data, '--callback-host', 'hooks.example.test']);
      expect(server.banner).to.include('callbacks to localhost, hooks.example.test');
      const record = {
        name: 'order',
        data: { ok: true },
        callbacks: [{ url: `http://127.0.0.1:${port}/paid/{{query.id}}` }, { url: 'http://10.1.2.3/x' }],
      };
      expect((await fetch(`${server.url}/api/endpoint/add`, { method: 'PUT', body: JSON.stringify(record) })).status).to.equal(201);
      expect((await fetch(`${server.url}/endpoint/order?id=9`)).status).to.equal(200);
      await until(() => heard.length === 1);
      const env = { SNIPPETKIT_MOCK_SERVER: server.url, NO_COLOR: '1' };
      let result = await runCli(['mock', 'log', 'order'], env);
      // The receiver answered before this read; its status is in the log once the sender has noted it.
      while (!/→ 201 in \d+ ms/.test(result.stdout)) result = await runCli(['mock', 'log', 'order'], env);
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stdout).to.match(new RegExp(`callback POST http://127\\.0\\.0\\.1:${port}/paid/9 → 201 in \\d+ ms`));
      expect(result.stdout).to.include(
        'callback POST http://10.1.2.3/x → not sent: 10.1.2.3 is not an allowed callback host; allowed: loopback, hooks.example.test',
      );
      expect(heard).to.deep.equal(['POST /paid/9']);
    } finally {
      receiver.close();
    }
  });

  it('refuses a --callback-host that is not a host, and a --callback-timeout that is not a duration', async () => {
    const bad = await runCli(['serve-mocks', '--port', '0', '--data', join(temp.dir, 'm.sqlite'), '--callback-host', 'http://x/']);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include('--callback-host takes a host name or address');
    const slow = await runCli(['serve-mocks', '--port', '0', '--data', join(temp.dir, 'm.sqlite'), '--callback-timeout', 'soon']);
    expect(slow.code).to.equal(2);
    expect(slow.stderr).to.match(/--callback-timeout.*whole number of milliseconds/);
  });
});

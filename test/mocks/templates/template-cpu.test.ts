import { expect } from 'chai';
import { join } from 'node:path';
import { startServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';

describe('templates: the CPU budget of a request', () => {
  let server: TestMockServer;
  afterEach(() => server?.close());

  const post = (path: string, body: string) =>
    server.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('answers a render past --max-request-cpu with a 503 naming the budget, sending nothing of it', async () => {
    server = await startMockServer({ config: { maxRequestCpu: 50 } });
    await addEndpoint(server, {
      name: 'amp',
      methods: ['POST'],
      template: true,
      data: "{{#each body}}{{faker 'string.nanoid'}}{{/each}}",
    });
    // 64 KB of [1,1,…]: 32,767 faker calls, about 1 s of CPU (6 s on a loaded machine) before the budget.
    const body = JSON.stringify(Array(32 * 1024 - 1).fill(1));
    const started = performance.now();
    const res = await post('/endpoint/amp', body);
    const took = performance.now() - started;
    expect(res.status).to.equal(503);
    expect(await res.json()).to.deep.equal({
      success: false,
      message: 'the templates went over the CPU budget of one request (50 ms, --max-request-cpu)',
    });
    // 50 ms of rendering, plus reading and parsing 64 KB: generous for a loaded machine.
    expect(took).to.be.below(1000);
    const log = (await (await server.fetch('/api/endpoint/amp/requests')).json()) as { requests: { status: number }[] };
    expect(log.requests.map((entry) => entry.status)).to.deep.equal([503]);
  });

  it('renders a template within the budget as before, each request with a budget of its own', async () => {
    server = await startMockServer({ config: { maxRequestCpu: 50 } });
    await addEndpoint(server, { name: 'echo', methods: ['POST'], template: true, data: '{{#each body}}{{this}}{{/each}}' });
    for (let i = 0; i < 3; i++) {
      const res = await post('/endpoint/echo', '[1,2,3]');
      expect(res.status).to.equal(200);
      expect(await res.json()).to.equal('123');
    }
  });

  it('takes its budget from --max-request-cpu', async () => {
    const temp = tempDir();
    const data = join(temp.dir, 'm.sqlite');
    const server = await startServerProcess(['serve-mocks', '--port', '0', '--data', data, '--max-request-cpu', '30']);
    try {
      const record = { template: true, methods: ['POST'], data: '{{#each body}}{{#each ../body}}{{/each}}{{/each}}' };
      const headers = { 'content-type': 'application/json' };
      await fetch(`${server.url}/api/endpoint/nested`, { method: 'PUT', headers, body: JSON.stringify(record) });
      const body = JSON.stringify(Array(5000).fill(0));
      const res = await fetch(`${server.url}/endpoint/nested`, { method: 'POST', headers, body });
      expect(res.status).to.equal(503);
      expect(((await res.json()) as { message: string }).message).to.equal(
        'the templates went over the CPU budget of one request (30 ms, --max-request-cpu)',
      );
    } finally {
      await server.stop();
      temp.cleanup();
    }
  });
});

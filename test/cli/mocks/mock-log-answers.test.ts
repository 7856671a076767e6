import { expect } from 'chai';
import { runCli, useMockProcess } from '../../helpers/cli.js';
import type { TestResponse } from '../../helpers/http.js';

// An endpoint whose answers differ per request: a DELETE gets #1 (responses[0]), `x-fail: 1` #2 (a reset).
const ORDER = {
  statusCode: 200,
  data: { id: 1 },
  responses: [
    { when: { method: 'DELETE' }, statusCode: 204 },
    { when: { headers: { 'x-fail': '1' } }, fault: 'reset' },
  ],
};

describe('snippetkit mock log against a real server: which answer each request got, and --clear', function () {
  this.timeout(60_000); // each CLI run takes seconds on a loaded 2-core machine
  const server = useMockProcess();
  const cli = (args: string[]) => runCli(['mock', ...args], { SNIPPETKIT_MOCK_SERVER: server.url });
  const api = (path: string, init?: RequestInit): Promise<TestResponse> => fetch(`${server.url}/api/${path}`, init);

  async function addOrder(name: string): Promise<void> {
    const res = await api('endpoint/add', { method: 'PUT', body: JSON.stringify({ name, ...ORDER }) });
    expect(res.status, await res.text()).to.equal(201);
    expect((await fetch(`${server.url}/endpoint/${name}`)).status).to.equal(200);
    expect((await fetch(`${server.url}/endpoint/${name}`, { method: 'DELETE' })).status).to.equal(204);
    // the server resets the connection: no response at all
    const failed = fetch(`${server.url}/endpoint/${name}`, { headers: { 'x-fail': '1' } });
    await failed.then(
      () => expect.fail('a reset endpoint answered'),
      (err: Error) => expect(err).to.be.instanceOf(TypeError),
    );
  }

  it('shows the status and which response answered, or the fault, for each request', async () => {
    await addOrder('order');
    const result = await cli(['log', 'order']);
    expect(result.code, result.stderr).to.equal(0);
    const answers = result.stdout.split('\n').flatMap((line) => /^\S+ (\S+ \S+ +→ .*)$/.exec(line)?.[1] ?? []);
    expect(answers).to.deep.equal([
      'GET /endpoint/order  → 200 default',
      'DELETE /endpoint/order  → 204 #1',
      'GET /endpoint/order  → fault reset, #2',
    ]);
  });

  it('gives response, status and fault as fields with --json', async () => {
    await addOrder('order-json');
    const result = await cli(['log', 'order-json', '--json']);
    const log = JSON.parse(result.stdout) as { response: number | null; status: number | null; fault?: string }[];
    expect(log.map(({ response, status, fault }) => ({ response, status, fault }))).to.deep.equal([
      { response: null, status: 200, fault: undefined },
      { response: 0, status: 204, fault: undefined },
      { response: 1, status: null, fault: 'reset' },
    ]);
  });

  it('empties the log with --clear, which the server then answers empty, and leaves other logs', async () => {
    await addOrder('cleared');
    await addOrder('kept');
    const cleared = await cli(['log', 'cleared', '--clear']);
    expect(cleared.code, cleared.stderr).to.equal(0);
    expect(cleared.stdout).to.equal('cleared the request log of cleared\n');
    expect((await (await api('endpoint/cleared/requests')).json()).requests).to.deep.equal([]);
    expect((await (await api('endpoint/kept/requests')).json()).requests).to.have.length(3);
    const shown = await cli(['log', 'cleared']);
    expect(shown.stdout).to.equal('cleared has received no requests yet\n');
  });
});

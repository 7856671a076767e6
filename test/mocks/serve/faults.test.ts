import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import type { Fault, MockInput } from '../../../src/mocks/record/record.js';
import { until } from '../../helpers/until.js';
import { startMockServer, type TestMockServer } from '../server.js';

/** What a raw client saw: every byte, and how the connection ended. */
type Seen = { bytes: Buffer; error?: string };

/** Sends one request on its own connection and collects everything until the connection ends. */
function exchange(url: string, path: string, headers = ''): Promise<Seen> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code));
    socket.on('close', () => resolve({ bytes: Buffer.concat(chunks), ...(error && { error }) }));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`);
  });
}

function faulty(name: string, fault: Fault, fields: Partial<MockInput> = {}): MockInput {
  return { name, statusCode: 200, delay: 0, json: '"fine"', fault, ...fields };
}

describe('faults seen from a client socket', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer();
    for (const fault of ['reset', 'empty', 'malformed', 'hang'] as const) await server.store.put(faulty(fault, fault));
  });
  after(() => server.close());

  it('reset: the connection is reset, with no bytes', async () => {
    expect(await exchange(server.url, '/endpoint/reset')).to.deep.equal({ bytes: Buffer.alloc(0), error: 'ECONNRESET' });
  });

  it('empty: the connection is closed cleanly, with no bytes', async () => {
    expect(await exchange(server.url, '/endpoint/empty')).to.deep.equal({ bytes: Buffer.alloc(0) });
  });

  it('malformed: bytes that are no HTTP answer, then the connection closes', async () => {
    const seen = await exchange(server.url, '/endpoint/malformed');
    expect(seen.bytes.length).to.be.at.least(16);
    expect(seen.bytes.subarray(0, 5).toString('latin1')).to.not.equal('HTTP/');
  });

  it('malformed: fetch fails rather than reading an answer', async () => {
    const failed = await server.fetch('/endpoint/malformed').then(
      () => false,
      () => true,
    );
    expect(failed).to.equal(true);
  });

  it('hang: nothing comes back, and once the client leaves the server holds nothing', async () => {
    const { hostname, port } = new URL(server.url);
    const socket: Socket = connect(Number(port), hostname);
    let bytes = 0;
    socket.on('data', (chunk) => (bytes += chunk.length));
    socket.write('GET /endpoint/hang HTTP/1.1\r\nHost: x\r\n\r\n');
    // The request is in once it is counted and logged; the answer never comes.
    await until(() => server.store.get('hang')!.stats.hits === 1);
    expect(await server.connections()).to.equal(1);
    expect(bytes).to.equal(0);
    socket.destroy();
    await until(async () => (await server.connections()) === 0);
  });

  it('logs a fault with no status', async () => {
    await exchange(server.url, '/endpoint/reset');
    expect(server.store.get('reset')!.stats.requests.newestFirst(1)[0]!).to.include({ response: null, status: null, fault: 'reset' });
  });

  it('faultRate: some requests fail, the rest answer normally', async function () {
    this.timeout(60_000);
    await server.store.put(faulty('half', 'reset', { faultRate: 0.5 }));
    const outcomes = new Set<string>();
    // Both outcomes are missed by 200 fair draws with a chance of 2 × 2^-200.
    for (let i = 0; i < 200 && outcomes.size < 2; i++) {
      const seen = await exchange(server.url, '/endpoint/half');
      outcomes.add(seen.error ?? seen.bytes.toString('latin1').slice(0, 12));
    }
    expect([...outcomes].sort()).to.deep.equal(['ECONNRESET', 'HTTP/1.1 200']);
  });

  it('a response with a fault of its own, chosen by when', async () => {
    await server.store.put({
      ...faulty('when-fault', 'reset'),
      fault: undefined,
      responses: [{ when: { headers: { 'x-fail': '1' } }, fault: 'empty' }],
    });
    const normal = await exchange(server.url, '/endpoint/when-fault');
    expect(normal.bytes.toString('latin1')).to.match(/^HTTP\/1\.1 200/);
    expect(await exchange(server.url, '/endpoint/when-fault', 'X-Fail: 1\r\n')).to.deep.equal({ bytes: Buffer.alloc(0) });
  });

  it('a delayed fault leaves no timer once the client leaves', async () => {
    await server.store.put(faulty('slow-hang', 'hang', { delay: 50_000 }));
    const timers = () => process.getActiveResourcesInfo().filter((type) => type === 'Timeout').length;
    const before = timers();
    const { hostname, port } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    socket.write('GET /endpoint/slow-hang HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(() => server.store.get('slow-hang')!.stats.hits === 1);
    expect(timers()).to.equal(before + 1);
    socket.destroy();
    await until(async () => (await server.connections()) === 0 && timers() === before);
  });
});

describe('hang faults are capped', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer({ config: { maxHangs: 2 } });
    await server.store.put(faulty('hang', 'hang'));
  });
  after(() => server.close());

  /** Opens a hanging request and resolves once the server has taken it in. */
  async function hang(): Promise<Socket> {
    const { hostname, port } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => {});
    const hits = server.store.get('hang')!.stats.hits;
    socket.write('GET /endpoint/hang HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(() => server.store.get('hang')!.stats.hits === hits + 1);
    return socket;
  }

  it('past maxHangs a hang closes the connection with no bytes; a client that leaves frees its place', async () => {
    const first = await hang();
    const second = await hang();
    expect(await exchange(server.url, '/endpoint/hang')).to.deep.equal({ bytes: Buffer.alloc(0) });
    first.destroy();
    await until(async () => (await server.connections()) === 1);
    // The freed place is taken again, which the next request, closed at once, shows.
    const third = await hang();
    expect(await exchange(server.url, '/endpoint/hang')).to.deep.equal({ bytes: Buffer.alloc(0) });
    expect(second.destroyed || third.destroyed).to.equal(false);
    second.destroy();
    third.destroy();
  });
});

import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { createBinApp } from '../src/bins/app.js';
import { openBinStore, type BinStore } from '../src/bins/store/store.js';
import { binConfigWith } from '../src/bins/config/defaults.js';
import { createMockHandler } from '../src/mocks/app.js';
import { openMockStore } from '../src/mocks/store/open-store.js';
import type { MockStore } from '../src/mocks/store/store.js';
import { listen, type RunningServer } from '../src/server/listen.js';
import { tempDir } from './helpers/temp.js';

const TIMEOUT_MS = 1000;

/** Opens a socket and sends `head`, then nothing more until told. */
function openSocket(url: string, head = ''): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      if (head) socket.write(head);
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

function answerOf(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (d) => (text += d));
    socket.on('close', () => resolve(text));
  });
}

describe('slow and idle clients', function () {
  this.timeout(30_000);
  const temp = tempDir();
  let binStore: BinStore;
  let mockStore: MockStore;
  let bins: RunningServer;
  let mocks: RunningServer;

  before(async () => {
    const config = binConfigWith({ api: { allowAnonymousReadWrite: true } });
    binStore = await openBinStore(join(temp.dir, 'bins.sqlite'));
    await binStore.append('steady', () => ({ html: 'steady', javascript: '', css: '', settings: {} }));
    bins = await listen(createBinApp({ store: binStore, config }).callback(), 0, '127.0.0.1', { requestTimeoutMs: TIMEOUT_MS });
    mockStore = await openMockStore(join(temp.dir, 'mocks.sqlite'));
    mocks = await listen(createMockHandler({ store: mockStore }), 0, '127.0.0.1', { requestTimeoutMs: TIMEOUT_MS });
    await fetch(`${mocks.url}/api/endpoint/add`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name":"steady","data":1}' });
  });
  after(async () => {
    await Promise.all([bins.close(100), mocks.close(100)]);
    await Promise.all([binStore.close(), mockStore.close()]);
    temp.cleanup();
  });

  for (const [name, path, method, type] of [
    ['bin', '/api/save', 'POST', 'application/x-www-form-urlencoded'],
    ['mock', '/api/endpoint/add', 'PUT', 'application/json'],
  ] as const) {
    it(`cuts off a ${name} client that sends its body a byte a second, and serves others meanwhile`, async () => {
      const server = name === 'bin' ? bins : mocks;
      const before = name === 'bin' ? JSON.stringify(await binStore.list()) : mockStore.list().length;
      const head = `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: 100\r\n\r\n`;
      const slow = await openSocket(server.url, head);
      const answer = answerOf(slow);
      const drip = setInterval(() => slow.writable && slow.write('a'), 1000);
      try {
        const started = performance.now();
        const steady = await fetch(`${server.url}${name === 'bin' ? '/api/steady' : '/endpoint/steady'}`);
        expect(steady.status).to.equal(200);
        expect(performance.now() - started).to.be.below(500);
        const text = await answer;
        expect(text).to.match(/^HTTP\/1\.1 408 /);
      } finally {
        clearInterval(drip);
        slow.destroy();
      }
      const after = name === 'bin' ? JSON.stringify(await binStore.list()) : mockStore.list().length;
      expect(after).to.equal(before);
    });

    it(`serves a ${name} client while 1,000 idle connections are open`, async () => {
      const server = name === 'bin' ? bins : mocks;
      const idle = await Promise.all(Array.from({ length: 1000 }, () => openSocket(server.url)));
      try {
        const started = performance.now();
        const res = await fetch(`${server.url}${name === 'bin' ? '/api/steady' : '/endpoint/steady'}`);
        expect(res.status).to.equal(200);
        expect(performance.now() - started).to.be.below(1000);
      } finally {
        for (const socket of idle) socket.destroy();
      }
    });
  }

  it('times out a request whose body is shorter than its Content-Length, storing nothing', async () => {
    const before = JSON.stringify(await binStore.list());
    const socket = await openSocket(bins.url, 'POST /api/save HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 50\r\n\r\nhtml=short');
    expect(await answerOf(socket)).to.match(/^HTTP\/1\.1 408 /);
    expect(JSON.stringify(await binStore.list())).to.equal(before);
  });
});

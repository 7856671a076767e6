import { expect } from 'chai';
import { connect } from 'node:net';
import { createMockHandler } from '../../../src/mocks/app.js';
import { RequestFeed } from '../../../src/mocks/log/feed.js';
import { openMemoryMockStore } from '../../../src/mocks/store/open-store.js';
import { jointHandler } from '../../../src/server/joint.js';
import { listen } from '../../../src/server/listen.js';
import { mockGate, tokenRoute } from '../../../src/server/mock-gate.js';
import { createMockTokens } from '../../../src/server/mock-token.js';
import { startMockServer as startNodeMockServer } from '../../../src/node/mock-server.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { until } from '../../helpers/until.js';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';
import { pendingTimers } from './pending-timers.js';
import { openSocket, refusedSocket } from './socket-client.js';

// The hostile-input gates of WebSocket endpoints (docs/security.md): connections per address and per
// endpoint, message size and rate, the handshake's own checks, and the gates HTTP has (Host, private mocks).

const HANDSHAKE = (path: string, extra = '') =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n${extra}\r\n`;

describe('WebSocket endpoints under attack', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer({
      config: { streamLimits: { maxPerAddress: 5, maxPerEndpoint: 8, maxMessagesPerSecond: 20, maxMessageBytes: 64 * 1024 } },
    });
    await addEndpoint(server, { name: 'echo', kind: 'websocket', echo: true });
    await addEndpoint(server, { name: 'busy', kind: 'websocket', onConnect: [{ data: 'late', delay: 60_000 }], every: { ms: 30_000, data: 'x' } });
  });
  after(() => server.close());

  it('refuses a connection past the per-address limit with 503 and JSON, and takes one again once another closes', async () => {
    const open = await Promise.all([1, 2, 3, 4, 5].map(() => openSocket(`${server.url}/endpoint/echo`)));
    const refused = await refusedSocket(`${server.url}/endpoint/echo`);
    expect(refused).to.deep.equal({
      status: 503,
      body: { success: false, message: 'too many open connections from your address (at most 5); close some and try again' },
    });
    open[0]!.close();
    await open[0]!.closed;
    const again = await openSocket(`${server.url}/endpoint/echo`);
    for (const socket of [...open.slice(1), again]) socket.close();
    await Promise.all([...open, again].map((socket) => socket.closed));
  });

  it('refuses a connection past the per-endpoint limit, whatever the address', async () => {
    const from = (n: number) => ({ localAddress: `127.0.0.${n}` });
    const open = await Promise.all([2, 2, 2, 2, 3, 3, 3, 3].map((n) => openSocket(`${server.url}/endpoint/echo`, from(n))));
    const refused = await refusedSocket(`${server.url}/endpoint/echo`, from(4));
    expect(refused.status).to.equal(503);
    expect(refused.body.message).to.equal("endpoint 'echo' has too many open connections (at most 8); try again later");
    open.forEach((socket) => socket.close());
    await Promise.all(open.map((socket) => socket.closed));
  });

  it('closes with 1009 on a message past the size limit, and logs no message for it', async () => {
    const socket = await openSocket(`${server.url}/endpoint/echo`);
    socket.send(Buffer.alloc(64 * 1024 + 1, 'a'));
    expect((await socket.closed).code).to.equal(1009);
    const entries = server.store.get('echo')!.stats.requests.newestFirst();
    expect(entries.filter((entry) => entry.socket?.event === 'in' && entry.body.length > 1000)).to.deep.equal([]);
  });

  it('closes with 1008 a client sending more messages a second than allowed', async () => {
    const socket = await openSocket(`${server.url}/endpoint/echo`);
    for (let i = 0; i < 60; i++) socket.send(`m${i}`);
    const closed = await socket.closed;
    expect(closed).to.deep.equal({ code: 1008, reason: 'more than 20 messages a second' });
  });

  it('answers a broken handshake with 400 and JSON before any connection is made', async () => {
    const answer = await rawRequest(server.url, HANDSHAKE('/endpoint/echo', 'Sec-WebSocket-Version: 13\r\n'));
    expect(answer.status).to.equal(400);
    expect(JSON.parse(answer.body)).to.deep.equal({
      success: false,
      message: 'a WebSocket handshake needs Sec-WebSocket-Key and Sec-WebSocket-Version: 13',
    });
  });

  it('sends an upgrade to no endpoint, or to the API, through the ordinary answers, then closes the socket', async () => {
    const missing = await rawRequest(server.url, HANDSHAKE('/endpoint/nothing'));
    expect([missing.status, JSON.parse(missing.body)]).to.deep.equal([404, { success: false, message: "no endpoint named 'nothing'" }]);
    const api = await rawRequest(server.url, HANDSHAKE('/api/endpoints'));
    expect(api.status).to.equal(200);
  });

  it('clears every timer and gives back every charge when a flood of connections leaves', async () => {
    // The timers the connections' scripts set, by who set them: each must be cleared once they close.
    const { pending, stop } = pendingTimers('socket-script');
    try {
      const flood = await Promise.all([5, 6, 7, 8].flatMap((n) => [1, 2].map(() => openSocket(`${server.url}/endpoint/busy`, { localAddress: `127.0.0.${n}` }))));
      expect(server.store.memory.connections.used).to.be.greaterThan(0);
      // A minute's onConnect message and a 30 s `every` on each.
      expect(pending.size).to.equal(16);
      flood.forEach((socket) => socket.close());
      await Promise.all(flood.map((socket) => socket.closed));
      await until(() => server.store.memory.connections.used === 0 && pending.size === 0);
    } finally {
      stop();
    }
  });

  it('drops slowloris upgrades: headers that trickle, and an upgrade no answer ever comes to', async () => {
    const store = await openMemoryMockStore();
    const feed = new RequestFeed();
    await store.put({ name: 'stuck', statusCode: 200, delay: 0, json: '1', fault: 'hang' });
    const running = await listen(createMockHandler({ store, feed }), 0, '127.0.0.1', { requestTimeoutMs: 500 });
    try {
      const started = Date.now();
      const [trickle, hung] = await Promise.all([
        rawRequest(running.url, 'GET /endpoint/stuck HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n'),
        rawRequest(running.url, HANDSHAKE('/endpoint/stuck')),
      ]);
      // Node's header timeout answers the first (408) or drops it; the upgrade's own timeout drops the second.
      expect([0, 408]).to.include(trickle.status);
      expect(hung.status).to.equal(0);
      expect(Date.now() - started).to.be.below(5000);
    } finally {
      feed.close();
      await running.close(100);
      await store.close();
    }
  });

  it('drops a client that never reads when broadcasts leave it too far behind, and gives back its charge', async () => {
    const slow = await startMockServer({ config: { streamLimits: { maxBuffered: 64 * 1024 } } });
    try {
      await addEndpoint(slow, { name: 'room', kind: 'websocket' });
      // A handshake by hand on a socket that is never read from once the answer's head is in.
      const { port } = new URL(slow.url);
      const raw = connect(Number(port), '127.0.0.1');
      raw.write(HANDSHAKE('/endpoint/room', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n'));
      await new Promise((resolve) => raw.once('data', resolve));
      raw.pause();
      const closed = new Promise((resolve) => raw.once('close', resolve));
      const big = JSON.stringify({ data: 'x'.repeat(512 * 1024) });
      let sent = 1;
      for (let i = 0; i < 200 && sent > 0; i++) {
        const res = await slow.fetch('/api/endpoint/room/broadcast', { method: 'POST', body: big });
        sent = ((await res.json()) as { sent: number }).sent;
      }
      expect(sent).to.equal(0);
      raw.destroy();
      await closed;
      await until(() => slow.store.memory.streams.used === 0 && slow.store.memory.connections.used === 0);
    } finally {
      await slow.close();
    }
  });

  it('goes through the Host check (DNS rebinding) like any request, in the Node API, which broadcasts too', async () => {
    const mocks = await startNodeMockServer({ endpoints: [{ name: 'ws', kind: 'websocket', onConnect: [{ data: 'hi' }] }] });
    try {
      const socket = await openSocket(`${mocks.url}/endpoint/ws`);
      expect(await socket.next()).to.equal('hi');
      expect(await mocks.broadcast('ws', { to: 'all' })).to.equal(1);
      expect(await socket.next()).to.equal('{"to":"all"}');
      socket.close();
      const refused = await refusedSocket(`${mocks.url}/endpoint/ws`, { headers: { Host: 'evil.example' } });
      expect(refused.status).to.equal(403);
      expect(refused.body.message).to.match(/^requests for host "evil.example" are refused/);
    } finally {
      await mocks.close();
    }
  });

  it('goes through the private-mocks gate of the joint server: the key, never an anonymous page', async () => {
    const store = await openMemoryMockStore();
    const feed = new RequestFeed();
    await store.put({ name: 'ws', kind: 'websocket', statusCode: 200, delay: 0, socket: { onConnect: [{ data: 'hi' }] } });
    const tokens = createMockTokens();
    const gate = mockGate({ owner: (req) => req.headers.authorization === 'token k', tokens, preflights: true, message: 'private' });
    const bins = () => {};
    const running = await listen(jointHandler({ bins, mocks: createMockHandler({ store, feed }), version: '0', privateMocks: { gate, tokenRoute: tokenRoute(tokens) } }), 0, '127.0.0.1');
    try {
      const refused = await refusedSocket(`${running.url}/endpoint/ws`);
      expect(refused).to.deep.equal({ status: 401, body: { success: false, message: 'private' } });
      const owner = await openSocket(`${running.url}/endpoint/ws`, { headers: { Authorization: 'token k' } });
      expect(await owner.next()).to.equal('hi');
      owner.close();
      await owner.closed;
    } finally {
      feed.close();
      await running.close(100);
      await store.close();
    }
  });

  it('with --no-cors, refuses pages of another origin, as they may not read its answers either', async () => {
    const strict = await startMockServer({ config: { cors: false } });
    try {
      await addEndpoint(strict, { name: 'ws', kind: 'websocket', echo: true });
      const refused = await refusedSocket(`${strict.url}/endpoint/ws`, { origin: 'https://evil.example' });
      expect(refused.status).to.equal(403);
      const own = await openSocket(`${strict.url}/endpoint/ws`, { origin: strict.url });
      own.close();
      await own.closed;
    } finally {
      await strict.close();
    }
  });
});

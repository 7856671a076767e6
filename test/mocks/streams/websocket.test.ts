import { expect } from 'chai';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';
import { until } from '../../helpers/until.js';
import { openSocket } from './socket-client.js';
import type { LoggedRequest } from '../../../src/mocks/log/request-log.js';
import { RequestFeed } from '../../../src/mocks/log/feed.js';

describe('WebSocket endpoints (kind websocket)', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer({ config: { streamLimits: { maxPerAddress: 5, maxMessagesPerSecond: 20, maxMessageBytes: 64 * 1024 } } });
  });
  after(() => server.close());

  it('sends onConnect messages in order, each delay counted from the one before, with templates over the upgrade request', async () => {
    await addEndpoint(server, {
      name: 'hello',
      kind: 'websocket',
      onConnect: [{ data: 'hi {{query.user}}' }, { data: { n: 2, user: '{{query.user}}' }, delay: 30 }, { data: 'third', delay: 30 }],
    });
    const started = Date.now();
    const socket = await openSocket(`${server.url}/endpoint/hello?user=ada`);
    expect(await socket.next()).to.equal('hi ada');
    expect(JSON.parse(await socket.next())).to.deep.equal({ n: 2, user: 'ada' });
    expect(await socket.next()).to.equal('third');
    expect(Date.now() - started).to.be.at.least(55);
    socket.close();
  });

  it('replies to messages by text, contains and JSON body, echoes the rest, and closes with a reply’s code', async () => {
    await addEndpoint(server, {
      name: 'chat',
      kind: 'websocket',
      echo: true,
      responses: [
        { when: { text: 'ping' }, data: 'pong' },
        { when: { contains: 'hello' }, data: 'you said {{message}}' },
        { when: { body: { type: 'sub' } }, data: { ok: true, channel: '{{body.channel}}' } },
        { when: { text: 'bye' }, data: 'bye', close: 4000 },
      ],
    });
    const socket = await openSocket(`${server.url}/endpoint/chat`);
    socket.send('ping');
    expect(await socket.next()).to.equal('pong');
    socket.send('well hello there');
    expect(await socket.next()).to.equal('you said well hello there');
    socket.send(JSON.stringify({ type: 'sub', channel: 'news' }));
    expect(JSON.parse(await socket.next())).to.deep.equal({ ok: true, channel: 'news' });
    socket.send('anything else');
    expect(await socket.next()).to.equal('anything else');
    socket.send('bye');
    expect(await socket.next()).to.equal('bye');
    expect((await socket.closed).code).to.equal(4000);
  });

  it('sends `every` on a timer and closes by `close` after its time, clearing its timers', async () => {
    await addEndpoint(server, { name: 'ticker', kind: 'websocket', every: { ms: 100, data: { tick: '{{now}}' } }, close: { code: 4001, after: 450 } });
    const socket = await openSocket(`${server.url}/endpoint/ticker`);
    const ticks = [await socket.next(), await socket.next(), await socket.next()];
    expect(ticks.map((tick) => Object.keys(JSON.parse(tick) as object))).to.deep.equal([['tick'], ['tick'], ['tick']]);
    expect((await socket.closed).code).to.equal(4001);
    await until(() => server.store.get('ticker')!.stats.requests.newestFirst()[0]?.socket?.event === 'close');
  });

  it('logs every open, message in and out and close in the endpoint’s request log', async () => {
    await addEndpoint(server, { name: 'logged', kind: 'websocket', responses: [{ data: 'ok' }] });
    const socket = await openSocket(`${server.url}/endpoint/logged?x=1`);
    socket.send('one');
    expect(await socket.next()).to.equal('ok');
    socket.close();
    await socket.closed;
    const log = async () => ((await (await server.fetch('/api/endpoint/logged/requests')).json()) as { requests: LoggedRequest[] }).requests;
    await until(async () => (await log()).length === 4);
    const entries = (await log()).reverse();
    expect(entries.map((entry) => [entry.socket?.event, entry.body, entry.status])).to.deep.equal([
      ['open', '', 101],
      ['in', 'one', null],
      ['out', 'ok', null],
      ['close', '', null],
    ]);
    expect(entries[0]!.url).to.equal('/endpoint/logged?x=1');
    expect(entries[0]!.headers.upgrade).to.equal('websocket');
    expect(entries[3]!.socket?.code).to.equal(1005);
    expect(new Set(entries.map((entry) => entry.socket?.connection)).size).to.equal(1);
  });

  it('broadcasts POST /api/endpoint/<name>/broadcast to every open connection and lists them', async () => {
    await addEndpoint(server, { name: 'room', kind: 'websocket' });
    const a = await openSocket(`${server.url}/endpoint/room`);
    const b = await openSocket(`${server.url}/endpoint/room`);
    const listed = (await (await server.fetch('/api/endpoint/room/connections')).json()) as { connections: unknown[] };
    expect(listed.connections).to.have.length(2);
    const res = await server.fetch('/api/endpoint/room/broadcast', { method: 'POST', body: JSON.stringify({ data: { news: 1 } }) });
    expect(await res.json()).to.deep.equal({ success: true, name: 'room', sent: 2 });
    expect(await a.next()).to.equal('{"news":1}');
    expect(await b.next()).to.equal('{"news":1}');
    a.close();
    b.close();
    await Promise.all([a.closed, b.closed]);
  });

  it('refuses a broadcast without data, and one to a REST endpoint, with JSON saying why', async () => {
    await addEndpoint(server, { name: 'rest', data: {} });
    const cases: [string, string, number, string][] = [
      ['room', '{}', 400, 'send a JSON object with the data to send: {"data": …}'],
      ['rest', '{"data":1}', 400, "endpoint 'rest' is not of kind websocket or sse: it has no connections"],
      ['none', '{"data":1}', 404, "no endpoint named 'none'"],
    ];
    for (const [name, body, status, message] of cases) {
      const res = await server.fetch(`/api/endpoint/${name}/broadcast`, { method: 'POST', body });
      expect([res.status, ((await res.json()) as { message: string }).message]).to.deep.equal([status, message]);
    }
  });

  it('answers a plain HTTP request with 426 and JSON saying to use a WebSocket client', async () => {
    const res = await server.fetch('/endpoint/room');
    expect(res.status).to.equal(426);
    expect(res.headers.get('upgrade')).to.equal('websocket');
    expect(((await res.json()) as { message: string }).message).to.equal("endpoint 'room' is a WebSocket endpoint: connect with a WebSocket client");
  });

  it('ends a connection when its endpoint is replaced or deleted, its timers cleared', async () => {
    await addEndpoint(server, { name: 'changing', kind: 'websocket', every: { ms: 100, data: 'tick' } });
    const socket = await openSocket(`${server.url}/endpoint/changing`);
    expect(await socket.next()).to.equal('tick');
    await server.putJson('/api/endpoint/changing', { kind: 'websocket', every: { ms: 100, data: 'tock' } });
    expect((await socket.closed).code).to.equal(1012);
    const again = await openSocket(`${server.url}/endpoint/changing`);
    expect(await again.next()).to.equal('tock');
    await server.fetch('/api/endpoint/changing', { method: 'DELETE' });
    expect((await again.closed).code).to.equal(1012);
  });

  it('round-trips the record through GET and PUT, and refuses fields of another kind', async () => {
    const record = { kind: 'websocket', onConnect: [{ data: 'x', delay: 5 }], responses: [{ when: { text: 'a' }, data: 'b' }], echo: true };
    await server.putJson('/api/endpoint/trip', record);
    const got = (await (await server.fetch('/api/endpoint/trip')).json()) as Record<string, unknown>;
    expect(got).to.include({ name: 'trip', kind: 'websocket', echo: true });
    expect(got).not.to.have.property('statusCode');
    expect((await server.putJson('/api/endpoint/trip', got)).status).to.equal(200);
    const cases: [unknown, number, string][] = [
      [{ kind: 'websocket', data: 1 }, 400, 'data does not apply to an endpoint of kind websocket; it takes name, path, kind, onConnect, responses, echo, every, close'],
      [{ kind: 'socket', data: 1 }, 400, 'kind must be one of graphql, websocket, sse (none: REST)'],
      [{ data: 1, echo: true }, 400, 'echo is a field of endpoints of kind websocket'],
      [{ kind: 'websocket', every: { ms: 1, data: 'x' } }, 400, 'every.ms must be a whole number of milliseconds from 100 to 60000'],
      [{ kind: 'websocket', responses: [{ when: { text: 'a' } }] }, 400, 'responses[0] needs data, close or both'],
      [{ kind: 'websocket', responses: [{ data: 'x', close: 1006 }] }, 400, 'responses[0].close must be a close code: 1000, or from 3000 to 4999'],
      [{ kind: 'websocket', onConnect: [{ data: '{{#if}}' }] }, 400, ''],
    ];
    for (const [body, status, message] of cases) {
      const res = await server.putJson('/api/endpoint/bad', body);
      const answer = (await res.json()) as { message: string; field: string };
      expect(res.status, JSON.stringify(body)).to.equal(status);
      if (message) expect(answer.message).to.equal(message);
      else expect(answer.field).to.equal('onConnect[0].data');
    }
  });

  it('closes every connection when the feed closes at shutdown (1001 for WebSockets, the end for event streams)', async () => {
    const feed = new RequestFeed();
    const own = await startMockServer({ feed });
    try {
      await addEndpoint(own, { name: 'ws', kind: 'websocket', every: { ms: 30_000, data: 'x' } });
      await addEndpoint(own, { name: 'sse', kind: 'sse', events: [{ data: 'a' }] });
      const socket = await openSocket(`${own.url}/endpoint/ws`);
      const stream = await fetch(`${own.url}/endpoint/sse`);
      const read = stream.body!.getReader();
      await read.read();
      feed.close();
      expect((await socket.closed).code).to.equal(1001);
      for (let chunk = await read.read(); !chunk.done; chunk = await read.read());
      const refused = await own.fetch('/endpoint/sse');
      expect([refused.status, await refused.json()]).to.deep.equal([503, { success: false, message: 'the server is shutting down' }]);
    } finally {
      await own.close();
    }
  });
});

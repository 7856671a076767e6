import { expect } from 'chai';
import { RequestFeed } from '../../../src/mocks/log/feed.js';
import { openSse, type SseClient, type SseOptions } from '../../helpers/sse.js';
import { until } from '../../helpers/until.js';
import { openIdleStreams, statuses, type IdleStream } from '../../helpers/idle-streams.js';
import { addEndpoint, startMockServer, type StartOptions, type TestMockServer } from '../server.js';

function openEvents(server: TestMockServer, name: string, options?: SseOptions): Promise<SseClient> {
  return openSse(`${server.url}/api/endpoint/${name}/events`, options);
}

describe('GET /api/endpoint/<name>/events', () => {
  let server: TestMockServer;
  const start = async (options: StartOptions = {}) => {
    server = await startMockServer(options);
    await addEndpoint(server, { name: 'hook', data: { ok: true } });
  };
  afterEach(() => server.close());

  it('answers an unknown name with a 404 in the error shape', async () => {
    await start();
    const res = await server.fetch('/api/endpoint/nope/events');
    expect(res.status).to.equal(404);
    expect(await res.json()).to.deep.equal({ success: false, message: "no endpoint named 'nope'" });
  });

  it('streams text/event-stream, uncached, starting with the log so far, newest first', async () => {
    await start();
    await server.fetch('/endpoint/hook?n=1');
    await server.fetch('/endpoint/hook?n=2');
    const stream = await openEvents(server, 'hook');
    try {
      expect(stream.status).to.equal(200);
      expect(stream.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
      expect(stream.headers.get('cache-control')).to.equal('no-cache, no-transform');
      const first = await stream.next('log');
      expect(first.event).to.equal('log');
      expect(JSON.parse(first.data).map((r: { url: string }) => r.url)).to.deep.equal([
        '/endpoint/hook?n=2',
        '/endpoint/hook?n=1',
      ]);
    } finally {
      stream.close();
    }
  });

  it('answers HEAD with the stream headers and no stream', async () => {
    await start();
    const res = await server.fetch('/api/endpoint/hook/events', { method: 'HEAD' });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
    expect(await res.text()).to.equal('');
  });

  for (const hotPath of [true, false]) {
    it(`sends one request event per request, as it is logged (${hotPath ? 'hot path' : 'Koa path'})`, async () => {
      await start({ hotPath });
      const stream = await openEvents(server, 'hook');
      try {
        expect(JSON.parse((await stream.next('log')).data)).to.deep.equal([]);
        await server.fetch('/endpoint/hook?n=1', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-signature': 'abc' },
          body: '{"event":"push",\n"line":2}',
        });
        await server.fetch('/endpoint/hook?n=2');
        const one = await stream.next('request');
        expect(one.event).to.equal('request');
        const entry = JSON.parse(one.data);
        const body = '{"event":"push",\n"line":2}';
        expect(entry).to.deep.include({ method: 'POST', url: '/endpoint/hook?n=1', body });
        expect(entry.headers).to.include({ 'x-signature': 'abc' });
        expect(JSON.parse((await stream.next('request')).data).url).to.equal('/endpoint/hook?n=2');
      } finally {
        stream.close();
      }
    });
  }

  it('sends nothing for requests to other endpoints', async () => {
    await start();
    await addEndpoint(server, { name: 'other', data: 1 });
    const stream = await openEvents(server, 'hook');
    try {
      await stream.next('log');
      await server.fetch('/endpoint/other');
      await server.fetch('/endpoint/hook?mine');
      expect(JSON.parse((await stream.next('request')).data).url).to.equal('/endpoint/hook?mine');
    } finally {
      stream.close();
    }
  });

  it('keeps an idle stream open with comments', async () => {
    await start({ config: { eventKeepAliveMs: 30 } });
    const stream = await openEvents(server, 'hook');
    try {
      await stream.next('log');
      expect(await stream.next(':')).to.deep.equal({ event: ':', data: 'keep-alive' });
    } finally {
      stream.close();
    }
  });

  it('answers 503 past the stream limit, and frees a stream when its client leaves', async () => {
    const feed = new RequestFeed();
    await start({ config: { maxEventStreams: 1 }, feed });
    const first = await openEvents(server, 'hook');
    await first.next('log');
    const refused = await server.fetch('/api/endpoint/hook/events');
    expect(refused.status).to.equal(503);
    const message = 'too many open event streams, try again later';
    expect(await refused.json()).to.deep.equal({ success: false, message });
    first.close();
    await until(() => feed.size === 0);
    const second = await openEvents(server, 'hook');
    second.close();
    expect(second.status).to.equal(200);
  });

  it('ends every stream when its feed closes, and refuses new ones, so shutdown need not wait', async () => {
    const feed = new RequestFeed();
    await start({ feed });
    const stream = await openEvents(server, 'hook');
    await stream.next('log');
    feed.close();
    await stream.ended;
    const refused = await server.fetch('/api/endpoint/hook/events');
    expect(refused.status).to.equal(503);
    expect(await refused.json()).to.deep.equal({ success: false, message: 'the server is shutting down' });
  });

  it('without that, the server still closes within its grace period, dropping the stream', async () => {
    await start();
    const stream = await openEvents(server, 'hook');
    await stream.next('log');
    const started = Date.now();
    await server.close(); // the test server's grace period is 100 ms
    expect(Date.now() - started).to.be.below(2000);
    await stream.ended;
    server = await startMockServer(); // for afterEach
  });
});

describe('event stream limits on the mock server', () => {
  let server: TestMockServer;
  let idle: IdleStream[] = [];
  const open: SseClient[] = [];
  const start = async (feed: RequestFeed) => {
    server = await startMockServer({ feed });
    await addEndpoint(server, { name: 'hook', data: { ok: true } });
  };
  afterEach(async () => {
    idle.forEach(({ socket }) => socket.destroy());
    idle = [];
    open.splice(0).forEach((client) => client.close());
    await server.close();
  });

  async function follow(localAddress: string): Promise<SseClient> {
    const client = await openEvents(server, 'hook', { localAddress });
    open.push(client);
    if (client.status === 200) await client.next('log');
    return client;
  }

  it('keeps a real follower in while 200 idle sockets from one other address try to hold an endpoint', async () => {
    await start(new RequestFeed());
    idle = await openIdleStreams(server.url, '/api/endpoint/hook/events', 200, ['127.0.0.2']);
    expect(statuses(idle)).to.deep.equal({ 200: 50, 503: 150 });
    expect(idle.find((stream) => stream.status === 503)!.first).to.include(
      '{"success":false,"message":"too many open event streams from your address, try again later"}',
    );
    expect((await follow('127.0.0.1')).status).to.equal(200);
  });

  it('makes way in a full endpoint by evicting the oldest stream of the address holding the most', async () => {
    await start(new RequestFeed({ maxPerTopic: 3, maxPerAddress: 2 }));
    const a = [await follow('127.0.0.2'), await follow('127.0.0.2')];
    expect((await follow('127.0.0.2')).status).to.equal(503);
    await follow('127.0.0.3');
    const c = await follow('127.0.0.4');
    expect(c.status).to.equal(200);
    await a[0]!.ended;
    const refused = await follow('127.0.0.3');
    expect([refused.status, JSON.parse(await refused.text())]).to.deep.equal([
      503,
      { success: false, message: 'too many open event streams here, try again later' },
    ]);
  });

  it('drops a reader that stops reading once it is too far behind', async () => {
    const feed = new RequestFeed({ maxBuffered: 64 * 1024 });
    await start(feed);
    idle = await openIdleStreams(server.url, '/api/endpoint/hook/events', 1, ['127.0.0.2']);
    expect(feed.size).to.equal(1);
    // Each request is logged with up to 64 KB of its body, and sent as an event; the kernel's
    // socket buffers take a few MB before the server has to hold anything.
    const body = 'x'.repeat(64 * 1024);
    for (let sent = 0; feed.size > 0; sent++) {
      expect(sent, 'requests sent without the reader being dropped').to.be.below(1000);
      await server.fetch('/endpoint/hook', { method: 'POST', body });
    }
  });
});

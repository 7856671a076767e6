import { expect } from 'chai';
import { RequestFeed } from '../../src/mocks/request-feed.js';
import { openSse, type SseClient, type SseOptions } from '../helpers/sse.js';
import { until } from '../helpers/until.js';
import { addEndpoint, startMockServer, type StartOptions, type TestMockServer } from './server.js';

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
        expect(entry).to.deep.include({ method: 'POST', url: '/endpoint/hook?n=1', body: '{"event":"push",\n"line":2}' });
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
    expect(await refused.json()).to.deep.equal({ success: false, message: 'too many open event streams, try again later' });
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

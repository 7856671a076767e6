import { expect } from 'chai';
import { RequestFeed } from '../../src/mocks/request-feed.js';
import { addEndpoint, startMockServer, type StartOptions, type TestMockServer } from './server.js';

type Event = { event: string; data: string };

/** An open event stream read with fetch: `next()` resolves with each frame in turn (comments included). */
type EventStream = { status: number; headers: Headers; next(): Promise<Event>; close(): void; ended: Promise<void> };

async function openEvents(server: TestMockServer, name: string): Promise<EventStream> {
  const abort = new AbortController();
  const res = await server.fetch(`/api/endpoint/${name}/events`, { signal: abort.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let ended!: () => void;
  const endedPromise = new Promise<void>((resolve) => (ended = resolve));
  const next = async (): Promise<Event> => {
    for (;;) {
      const end = buffered.indexOf('\n\n');
      if (end !== -1) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const event: Event = { event: '', data: '' };
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) event.event = 'comment';
          else if (line.startsWith('event: ')) event.event = line.slice(7);
          else if (line.startsWith('data: ')) event.data = line.slice(6);
        }
        return event;
      }
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) {
        ended();
        throw new Error('the stream ended');
      }
      buffered += value;
    }
  };
  return { status: res.status, headers: res.headers, next, close: () => abort.abort(), ended: endedPromise };
}

/** The next event that is not a comment. */
async function nextEvent(stream: EventStream): Promise<Event> {
  for (;;) {
    const event = await stream.next();
    if (event.event !== 'comment') return event;
  }
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
      const first = await nextEvent(stream);
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
        expect(JSON.parse((await nextEvent(stream)).data)).to.deep.equal([]);
        await server.fetch('/endpoint/hook?n=1', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-signature': 'abc' },
          body: '{"event":"push",\n"line":2}',
        });
        await server.fetch('/endpoint/hook?n=2');
        const one = await nextEvent(stream);
        expect(one.event).to.equal('request');
        const entry = JSON.parse(one.data);
        expect(entry).to.deep.include({ method: 'POST', url: '/endpoint/hook?n=1', body: '{"event":"push",\n"line":2}' });
        expect(entry.headers).to.include({ 'x-signature': 'abc' });
        expect(JSON.parse((await nextEvent(stream)).data).url).to.equal('/endpoint/hook?n=2');
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
      await nextEvent(stream);
      await server.fetch('/endpoint/other');
      await server.fetch('/endpoint/hook?mine');
      expect(JSON.parse((await nextEvent(stream)).data).url).to.equal('/endpoint/hook?mine');
    } finally {
      stream.close();
    }
  });

  it('keeps an idle stream open with comments', async () => {
    await start({ config: { eventKeepAliveMs: 30 } });
    const stream = await openEvents(server, 'hook');
    try {
      await nextEvent(stream);
      expect(await stream.next()).to.deep.equal({ event: 'comment', data: '' });
    } finally {
      stream.close();
    }
  });

  it('answers 503 past the stream limit, and frees a stream when its client leaves', async () => {
    await start({ config: { maxEventStreams: 1 } });
    const first = await openEvents(server, 'hook');
    await nextEvent(first);
    const refused = await server.fetch('/api/endpoint/hook/events');
    expect(refused.status).to.equal(503);
    expect(await refused.json()).to.deep.equal({ success: false, message: 'too many open event streams, try again later' });
    first.close();
    let second: EventStream | undefined;
    for (let tries = 0; tries < 50 && second?.status !== 200; tries++) {
      second?.close();
      await new Promise((resolve) => setTimeout(resolve, 20));
      second = await openEvents(server, 'hook');
    }
    try {
      expect(second!.status).to.equal(200);
    } finally {
      second!.close();
    }
  });

  it('ends every stream when its feed closes, and refuses new ones, so shutdown need not wait', async () => {
    const feed = new RequestFeed();
    await start({ feed });
    const stream = await openEvents(server, 'hook');
    await nextEvent(stream);
    feed.close();
    await stream.next().catch(() => {});
    await stream.ended;
    const refused = await server.fetch('/api/endpoint/hook/events');
    expect(refused.status).to.equal(503);
    expect(await refused.json()).to.deep.equal({ success: false, message: 'the server is shutting down' });
  });

  it('without that, the server still closes within its grace period, dropping the stream', async () => {
    await start();
    const stream = await openEvents(server, 'hook');
    await nextEvent(stream);
    const started = Date.now();
    await server.close(); // the test server's grace period is 100 ms
    expect(Date.now() - started).to.be.below(2000);
    await stream.next().catch(() => {});
    await stream.ended;
    server = await startMockServer(); // for afterEach
  });
});

import { expect } from 'chai';
import { createParser } from 'eventsource-parser';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';
import { until } from '../../helpers/until.js';
import { pendingTimers } from './pending-timers.js';

type Event = { event: string; data: string; id: string | undefined };

/** An event stream read with Node's fetch, as a test reads it: next() waits for the next event. */
async function readEvents(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: Event[] = [];
  const parser = createParser({ onEvent: ({ event, data, id }) => events.push({ event: event ?? 'message', data, id }) });
  let ended = false;
  const done = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    } catch {
      // aborted
    }
    ended = true;
  })();
  let read = 0;
  return {
    res,
    ended: done,
    async next(ms = 10_000): Promise<Event> {
      await until(() => events.length > read || ended, ms);
      if (events.length <= read) throw new Error('the stream ended');
      return events[read++]!;
    },
    close: () => controller.abort(),
  };
}

describe('event-stream endpoints (kind sse)', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer({ config: { streamLimits: { maxPerAddress: 4 } } });
  });
  after(() => server.close());

  it('streams its events in order with names, ids and delays, data a template over the request', async () => {
    await addEndpoint(server, {
      name: 'feed',
      kind: 'sse',
      events: [
        { event: 'greeting', data: 'hello {{query.user}}', id: '1' },
        { data: { n: 2, user: '{{query.user}}' }, id: '2', delay: 40 },
        { event: 'bye', data: 'last', delay: 40 },
      ],
    });
    const started = Date.now();
    const stream = await readEvents(`${server.url}/endpoint/feed?user=ada`);
    expect(stream.res.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
    expect(stream.res.headers.get('access-control-allow-origin')).to.equal('*');
    expect(await stream.next()).to.deep.equal({ event: 'greeting', data: 'hello ada', id: '1' });
    expect(await stream.next()).to.deep.equal({ event: 'message', data: '{"n":2,"user":"ada"}', id: '2' });
    expect(await stream.next()).to.deep.equal({ event: 'bye', data: 'last', id: undefined });
    expect(Date.now() - started).to.be.at.least(75);
    stream.close();
  });

  it('resumes after the event a reconnecting client names in Last-Event-ID', async () => {
    const stream = await readEvents(`${server.url}/endpoint/feed?user=bo`, { 'Last-Event-ID': '1' });
    expect((await stream.next()).id).to.equal('2');
    expect((await stream.next()).event).to.equal('bye');
    stream.close();
  });

  it('plays the events round and round with loop', async () => {
    await addEndpoint(server, { name: 'loop', kind: 'sse', loop: true, events: [{ data: 'a', id: 'a', delay: 50 }, { data: 'b', id: 'b', delay: 50 }] });
    const stream = await readEvents(`${server.url}/endpoint/loop`, { 'Last-Event-ID': 'b' });
    const got = [await stream.next(), await stream.next(), await stream.next()].map((event) => event.data);
    expect(got).to.deep.equal(['a', 'b', 'a']);
    stream.close();
  });

  it('broadcasts to every open stream, logged once, and logs each open, event and close', async () => {
    await addEndpoint(server, { name: 'news', kind: 'sse', events: [{ data: 'welcome' }] });
    const a = await readEvents(`${server.url}/endpoint/news`);
    const b = await readEvents(`${server.url}/endpoint/news`);
    await a.next();
    await b.next();
    const res = await server.fetch('/api/endpoint/news/broadcast', { method: 'POST', body: '{"data":{"breaking":true}}' });
    expect(await res.json()).to.deep.equal({ success: true, name: 'news', sent: 2 });
    expect(await a.next()).to.deep.equal({ event: 'message', data: '{"breaking":true}', id: undefined });
    expect((await b.next()).data).to.equal('{"breaking":true}');
    a.close();
    b.close();
    const log = () => server.store.get('news')!.stats.requests.newestFirst().reverse();
    await until(() => log().filter((entry) => entry.socket?.event === 'close').length === 2);
    const events = log().map((entry) => `${entry.socket?.event} ${entry.body}`);
    expect(events.sort()).to.deep.equal(['close ', 'close ', 'open ', 'open ', 'out welcome', 'out welcome', 'out {"breaking":true}'].sort());
  });

  it('refuses other methods with 405, and streams past the per-address limit with 503, in JSON', async () => {
    const post = await server.fetch('/endpoint/news', { method: 'POST', body: 'x' });
    expect([post.status, await post.json()]).to.deep.equal([405, { success: false, message: 'POST is not allowed here; allowed: GET, HEAD (an event stream)' }]);
    const open = await Promise.all([1, 2, 3, 4].map(() => readEvents(`${server.url}/endpoint/news`)));
    const refused = await server.fetch('/endpoint/news');
    expect(refused.status).to.equal(503);
    expect(await refused.json()).to.deep.equal({ success: false, message: 'too many open connections from your address (at most 4); close some and try again' });
    open.forEach((stream) => stream.close());
    await until(() => server.store.memory.connections.used === 0);
  });

  it('ends its streams when the endpoint changes, so clients reconnect to the new events', async () => {
    await addEndpoint(server, { name: 'moving', kind: 'sse', loop: true, events: [{ data: 'old', delay: 100 }] });
    const stream = await readEvents(`${server.url}/endpoint/moving`);
    expect((await stream.next()).data).to.equal('old');
    await server.putJson('/api/endpoint/moving', { kind: 'sse', events: [{ data: 'new' }] });
    await stream.ended;
    const again = await readEvents(`${server.url}/endpoint/moving`);
    expect((await again.next()).data).to.equal('new');
    again.close();
  });

  it('refuses a looping list of events faster than 100 ms a round, and ids on two lines', async () => {
    const cases: [unknown, string][] = [
      [{ kind: 'sse', loop: true, events: [{ data: 1 }] }, 'a looping list of events must take at least 100 ms a round (its delays add up to 0)'],
      [{ kind: 'sse', events: [{ data: 1, id: 'a\ndata: x' }] }, 'events[0].id must be a string of at most 10000 characters, on one line'],
      [{ kind: 'sse', events: [] }, 'events must hold at least one event'],
      [{ kind: 'sse' }, 'events is required: a list of { event, data, id, delay }'],
    ];
    for (const [body, message] of cases) {
      const res = await server.putJson('/api/endpoint/bad', body);
      expect([res.status, ((await res.json()) as { message: string }).message]).to.deep.equal([400, message]);
    }
  });

  it('clears each stream\'s timer when its client leaves', async () => {
    await addEndpoint(server, { name: 'slow', kind: 'sse', loop: true, events: [{ data: 'a' }, { data: 'b', delay: 60_000 }] });
    // The timers the streams set, by who set them: each must be cleared once its client goes.
    const { pending, stop } = pendingTimers('streams/events');
    try {
      const streams = await Promise.all([1, 2, 3].map(() => readEvents(`${server.url}/endpoint/slow`)));
      for (const stream of streams) expect((await stream.next()).data).to.equal('a');
      await until(() => pending.size === 3);
      streams.forEach((stream) => stream.close());
      await until(() => pending.size === 0 && server.store.memory.connections.used === 0);
    } finally {
      stop();
    }
  });
});

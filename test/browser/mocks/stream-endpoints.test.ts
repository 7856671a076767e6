import { expect } from 'chai';
import { listen, type RunningServer } from '../../../src/server/listen.js';
import { addEndpoint, startMockServer, type TestMockServer } from '../../mocks/server.js';
import { usePage } from '../browser.js';

// WebSocket and event-stream endpoints with Chromium's own WebSocket and EventSource, from a page of
// another origin (as an app under development calls its mock server).

describe('WebSocket and event-stream endpoints in a real browser', function () {
  this.timeout(60_000);
  let server: TestMockServer;
  let app: RunningServer;
  const t = usePage();

  before(async () => {
    server = await startMockServer();
    app = await listen((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'), 0, '127.0.0.1');
    await addEndpoint(server, {
      name: 'chat',
      kind: 'websocket',
      onConnect: [{ data: 'welcome {{query.user}}' }],
      responses: [{ when: { body: { type: 'ping' } }, data: { type: 'pong', at: '{{body.at}}' } }],
    });
    await addEndpoint(server, {
      name: 'deploy',
      kind: 'sse',
      events: [
        { event: 'status', data: { step: 'build' }, id: '1' },
        { event: 'status', data: { step: 'test' }, id: '2' },
        { event: 'done', data: 'ok', id: '3', delay: 60_000 },
      ],
    });
  });
  after(async () => {
    await app?.close(100);
    await server?.close();
  });

  it('talks to a WebSocket endpoint with the browser’s WebSocket, and gets a broadcast', async () => {
    await t.page.goto(app.url);
    const url = `${server.url.replace('http', 'ws')}/endpoint/chat?user=ada`;
    await t.page.evaluate((wsUrl) => {
      const got: string[] = [];
      const ws = new WebSocket(wsUrl);
      Object.assign(window, { got, ws });
      ws.onmessage = (event) => {
        got.push(String(event.data));
        if (got.length === 1) ws.send(JSON.stringify({ type: 'ping', at: 7 }));
      };
    }, url);
    await t.page.waitForFunction(() => (window as unknown as { got: string[] }).got.length === 2);
    const res = await server.fetch('/api/endpoint/chat/broadcast', { method: 'POST', body: '{"data":"to all"}' });
    expect(((await res.json()) as { sent: number }).sent).to.equal(1);
    await t.page.waitForFunction(() => (window as unknown as { got: string[] }).got.length === 3);
    const got = await t.page.evaluate(() => (window as unknown as { got: string[]; ws: WebSocket }).got);
    expect(got).to.deep.equal(['welcome ada', '{"type":"pong","at":"7"}', 'to all']);
    const origin = server.store.get('chat')!.stats.requests.newestFirst().find((entry) => entry.socket?.event === 'open')!.headers.origin;
    expect(origin).to.equal(app.url);
    await t.page.evaluate(() => (window as unknown as { ws: WebSocket }).ws.close());
  });

  it('follows an event-stream endpoint with EventSource, which resumes after its last id when the stream ends', async () => {
    await t.page.goto(app.url);
    await t.page.evaluate((sseUrl) => {
      const got: string[] = [];
      const source = new EventSource(sseUrl);
      Object.assign(window, { got, source });
      // (no named function here: tsx would wrap it in a helper the page does not have)
      for (const type of ['status', 'done']) {
        source.addEventListener(type, (event) => got.push(`${event.type} ${event.lastEventId} ${event.data}`));
      }
    }, `${server.url}/endpoint/deploy`);
    await t.page.waitForFunction(() => (window as unknown as { got: string[] }).got.length === 2);
    // The endpoint changes (its last event now comes at once): the server ends the stream, the browser reconnects with Last-Event-ID: 2.
    await server.putJson('/api/endpoint/deploy', {
      kind: 'sse',
      events: [
        { event: 'status', data: { step: 'build' }, id: '1' },
        { event: 'status', data: { step: 'test' }, id: '2' },
        { event: 'done', data: 'ok', id: '3' },
      ],
    });
    await t.page.waitForFunction(() => (window as unknown as { got: string[] }).got.length === 3);
    const got = await t.page.evaluate(() => {
      const { got: events, source } = window as unknown as { got: string[]; source: EventSource };
      source.close();
      return events;
    });
    expect(got).to.deep.equal(['status 1 {"step":"build"}', 'status 2 {"step":"test"}', 'done 3 ok']);
    const opens = server.store.get('deploy')!.stats.requests.newestFirst().filter((entry) => entry.socket?.event === 'open');
    expect(opens[0]!.headers['last-event-id']).to.equal('2');
  });
});

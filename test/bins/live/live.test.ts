import { expect } from 'chai';
import { createBinApp } from '../../../src/bins/app.js';
import { createLiveHub } from '../../../src/bins/live/hub.js';
import { listen } from '../../../src/server/listen.js';
import { KEYED, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';
import { openSse, type SseClient } from '../../helpers/sse.js';

const KEY = { authorization: 'token sekrit-key' };

describe('live sharing over Server-Sent Events', () => {
  let server: TestBinServer;
  let bin: string;
  const open: SseClient[] = [];
  before(async () => {
    server = await startBinServer(KEYED);
    bin = (await (await server.postForm('/api/save', { html: '<p>one</p>', css: 'p{}' }, KEY)).json()).url;
  });
  after(() => server.close());
  afterEach(() => open.splice(0).forEach((client) => client.close()));

  async function follow(path: string): Promise<SseClient> {
    const client = await openSse(server.url + path);
    open.push(client);
    return client;
  }

  function broadcast(body: object, headers: Record<string, string> = KEY) {
    return server.fetch(`/api/${bin}/live`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  }

  it('streams a bin\'s events on its own addresses, readable from any origin', async () => {
    const watcher = await follow(`/${bin}/1/watch`);
    expect(watcher.status).to.equal(200);
    expect(watcher.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
    expect(watcher.headers.get('access-control-allow-origin')).to.equal('*');
    expect(await watcher.next('stats')).to.deep.equal({ event: 'stats', data: '{"connections":1}' });
  });

  it('sends each broadcast batch from one client to the other, raw and processed', async () => {
    const watcher = await follow(`/${bin}`);
    const res = await broadcast({ html: '# Hello\nworld', css: 'p { a: b }', processors: { html: 'markdown' } });
    expect([res.status, await res.json()]).to.deep.equal([200, { connections: 1 }]);
    expect((await watcher.next('html')).data).to.equal('# Hello\nworld');
    expect((await watcher.next('css')).data).to.equal('p { a: b }');
    const processed = await Promise.all(['html:processed', 'css:processed', 'javascript:processed'].map((name) => watcher.next(name)));
    expect(processed.map((e) => e.data)).to.deep.equal(['<h1>Hello</h1>\n<p>world</p>\n', 'p { a: b }', '']);
  });

  it('counts connections in stats as clients come and go', async () => {
    const first = await follow(`/${bin}/latest`);
    expect((await first.next('stats')).data).to.equal('{"connections":1}');
    const second = await follow(`/${bin}/1/edit`);
    expect((await first.next('stats')).data).to.equal('{"connections":2}');
    second.close();
    expect((await first.next('stats')).data).to.equal('{"connections":1}');
  });

  const refusals: [string, Record<string, string>, string][] = [
    ['no key', {}, 'You need to provide a valid API key when using this API'],
    ['a wrong key', { authorization: 'token nope' }, 'The API key you provided is not valid'],
  ];
  for (const [what, headers, error] of refusals) {
    it(`refuses a broadcast with ${what} (403) and sends nothing`, async () => {
      const watcher = await follow(`/${bin}`);
      const res = await broadcast({ html: 'evil' }, headers);
      expect([res.status, await res.json()]).to.deep.equal([403, { error }]);
      // Events arrive in order: a console record sent after the refusal comes first if nothing was sent.
      await server.fetch(`/api/${bin}/console`, { method: 'POST', body: JSON.stringify({ records: [] }) });
      expect((await watcher.next(['html', 'console'])).event).to.equal('console');
    });
  }

  const bad: [string, object, number, object][] = [
    ['a panel that is not a string', { html: 1 }, 400, { error: 'html must be a string', field: 'html' }],
    ['no panel at all', { other: 'x' }, 400, { error: 'send at least one of html, css, javascript' }],
  ];
  for (const [what, body, status, error] of bad) {
    it(`refuses a broadcast of ${what}`, async () => {
      const res = await broadcast(body);
      expect([res.status, await res.json()]).to.deep.equal([status, error]);
    });
  }

  it('answers 404 for a stream or broadcast of an unknown bin', async () => {
    const stream = await openSse(`${server.url}/nosuchbin`);
    stream.close();
    expect(stream.status).to.equal(404);
    const res = await server.fetch('/api/nosuchbin/live', { method: 'POST', headers: KEY, body: '{"html":""}' });
    expect([res.status, await res.json()]).to.deep.equal([404, { error: 'not found' }]);
  });

  it('renders broadcast panels with ?live, never as a revision; a save sends bump-revision and ends them', async () => {
    const own = (await (await server.postForm('/api/save', { html: '<p>saved</p>' }, KEY)).json()).url;
    const watcher = await follow(`/${own}`);
    await server.fetch(`/api/${own}/live`, { method: 'POST', headers: KEY, body: JSON.stringify({ html: '<p>typed</p>' }) });
    await watcher.next('html:processed');
    expect(await (await server.fetch(`/${own}?live`)).text()).to.include('<p>typed</p>');
    expect(await (await server.fetch(`/${own}`)).text()).to.include('<p>saved</p>');
    expect((await server.store.get(own))?.rev).to.equal(1);
    await server.postForm(`/api/${own}/save`, { html: '<p>two</p>' }, KEY);
    expect((await watcher.next('bump-revision')).data).to.equal(`${own}/2`);
    expect(await (await server.fetch(`/${own}?live`)).text()).to.include('<p>two</p>');
  });

  it('relays console and network records from output pages to whoever follows the bin', async () => {
    const editor = await follow(`/${bin}/1/edit`);
    const records = [{ snippetkit: 'network', method: 'GET', url: 'https://x/', status: 200, ms: 3, size: 10 }];
    // As an output page sends them: text/plain from an opaque origin, no key.
    const res = await server.fetch(`/api/${bin}/console`, { method: 'POST', headers: { origin: 'null' }, body: JSON.stringify({ records }) });
    expect(res.status).to.equal(200);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    expect(JSON.parse((await editor.next('console')).data)).to.deep.equal(records);
    const refused = await server.fetch(`/api/${bin}/console`, { method: 'POST', body: JSON.stringify({ records: 'x' }) });
    expect([refused.status, await refused.json()]).to.deep.equal([400, { error: 'records must be an array of at most 50 objects', field: 'records' }]);
  });

  it('puts the follow script in output pages, not in quiet pages, source or downloads', async () => {
    expect(await (await server.fetch(`/${bin}`)).text()).to.include('new EventSource(at(here, false))');
    expect(await (await server.fetch(`/${bin}/quiet`)).text()).to.not.include('EventSource');
    expect(await (await server.fetch(`/${bin}/1/source`)).text()).to.not.include('EventSource');
  });
});

describe('live streams and the server\'s life', () => {
  it('sends a keep-alive comment on every stream', async () => {
    // A second app over the test server's store, with a keep-alive short enough to wait for.
    const server = await startBinServer(KEYED);
    const live = createLiveHub({ keepAliveMs: 50 });
    const running = await listen(createBinApp({ store: server.store, config: server.config, live }).callback(), 0, '127.0.0.1');
    try {
      const bin = (await (await server.postForm('/api/save', { html: 'x' }, KEY)).json()).url;
      const stream = await openSse(`${running.url}/${bin}`);
      expect(await stream.next(':')).to.deep.equal({ event: ':', data: 'connected' });
      expect(await stream.next(':', 500)).to.deep.equal({ event: ':', data: 'keep-alive' });
      stream.close();
    } finally {
      await running.close(100);
      await server.close();
    }
  });

  it('closes the server within its grace period while streams are open', async () => {
    const server = await startBinServer(KEYED);
    const bin = (await (await server.postForm('/api/save', { html: 'x' }, KEY)).json()).url;
    const streams = await Promise.all([1, 2, 3].map(() => openSse(`${server.url}/${bin}`)));
    await streams[0]!.next('stats');
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).to.be.below(1000);
    streams.forEach((s) => s.close());
  });
});

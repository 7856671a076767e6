import { expect } from 'chai';
import { createBinApp } from '../../../src/bins/app.js';
import { createLiveHub } from '../../../src/bins/live/hub.js';
import { listen, type RunningServer } from '../../../src/server/listen.js';
import { loopbackAddresses, openIdleStreams, statuses, type IdleStream } from '../../helpers/idle-streams.js';
import { OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';
import { openSse, type SseClient } from '../../helpers/sse.js';

describe('live streams: connection limits that idle sockets cannot use to lock others out', () => {
  let server: TestBinServer;
  let bin: string;
  const idle: IdleStream[] = [];
  const open: SseClient[] = [];
  beforeEach(async () => {
    server = await startBinServer(OPEN);
    bin = (await (await server.postForm('/api/save', { html: 'x' })).json()).url;
  });
  afterEach(async () => {
    idle.splice(0).forEach(({ socket }) => socket.destroy());
    open.splice(0).forEach((client) => client.close());
    await server.close();
  });

  async function follow(url: string, localAddress: string): Promise<SseClient> {
    const client = await openSse(url, { localAddress });
    open.push(client);
    return client;
  }

  it('keeps a real follower in while 200 idle sockets from one other address try to hold the bin', async () => {
    idle.push(...(await openIdleStreams(server.url, `/${bin}`, 200, ['127.0.0.2'])));
    expect(statuses(idle)).to.deep.equal({ 200: 50, 503: 150 });
    const refusal = idle.find((stream) => stream.status === 503)!.first;
    expect(refusal).to.match(/\r\nretry-after: 5\r\n/i);
    expect(refusal).to.include('{"error":"too many open event streams from your address, try again later"}');
    const follower = await follow(`${server.url}/${bin}`, '127.0.0.1');
    expect(follower.status).to.equal(200);
    expect((await follower.next('stats')).data).to.equal('{"connections":51}');
  });

  it('lets a follower into a bin that idle sockets from several addresses have filled', async () => {
    idle.push(...(await openIdleStreams(server.url, `/${bin}`, 200, loopbackAddresses(2, 4))));
    expect(statuses(idle)).to.deep.equal({ 200: 200 });
    const follower = await follow(`${server.url}/${bin}`, '127.0.0.1');
    expect(follower.status).to.equal(200);
    // One idle stream made way for it.
    expect((await follower.next('stats')).data).to.equal('{"connections":200}');
  });
});

describe('live streams: who makes way in a full bin', () => {
  let server: TestBinServer;
  let running: RunningServer;
  let bin: string;
  const open: SseClient[] = [];
  before(async () => {
    // A second app over the test server's store, with limits small enough to walk through.
    server = await startBinServer(OPEN);
    const live = createLiveHub({ maxPerTopic: 4, maxPerAddress: 3 });
    const app = createBinApp({ store: server.store, config: server.config, live });
    running = await listen(app.callback(), 0, '127.0.0.1');
    bin = (await (await server.postForm('/api/save', { html: 'x' })).json()).url;
  });
  after(async () => {
    open.splice(0).forEach((client) => client.close());
    await running.close(100);
    await server.close();
  });

  async function follow(localAddress: string): Promise<SseClient> {
    const client = await openSse(`${running.url}/${bin}`, { localAddress });
    open.push(client);
    if (client.status === 200) await client.next('stats');
    return client;
  }

  it('evicts the oldest stream of the address holding the most, and only while that evens shares out', async () => {
    const a = [await follow('127.0.0.2'), await follow('127.0.0.2'), await follow('127.0.0.2')];
    const b = await follow('127.0.0.3');
    expect([...a, b].map((client) => client.status)).to.deep.equal([200, 200, 200, 200]);
    // Full: a newcomer takes the place of A's oldest stream (A holds 3, the newcomer 0).
    const c = await follow('127.0.0.4');
    expect(c.status).to.equal(200);
    await a[0]!.ended;
    // A holds 2, B would hold 2: no swap evens that out, so B is refused, and so is A.
    const b2 = await follow('127.0.0.3');
    expect([b2.status, JSON.parse(await b2.text())]).to.deep.equal([
      503,
      { error: 'too many open event streams here, try again later' },
    ]);
    expect((await follow('127.0.0.2')).status).to.equal(503);
  });

  it('caps the streams of one address across all bins', async () => {
    const other = (await (await server.postForm('/api/save', { html: 'y' })).json()).url;
    const url = `${running.url}/${other}`;
    const streams = await Promise.all([1, 2, 3].map(() => openSse(url, { localAddress: '127.0.0.5' })));
    open.push(...streams);
    const fourth = await openSse(`${running.url}/${bin}`, { localAddress: '127.0.0.5' });
    expect([fourth.status, JSON.parse(await fourth.text())]).to.deep.equal([
      503,
      { error: 'too many open event streams from your address, try again later' },
    ]);
  });
});

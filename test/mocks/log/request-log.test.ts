import { expect } from 'chai';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';

describe('GET /api/endpoint/<name>/requests', () => {
  let server: TestMockServer;
  beforeEach(async () => {
    server = await startMockServer();
    await addEndpoint(server, { name: 'hook', data: { received: true } });
  });
  afterEach(() => server.close());

  const log = async (name = 'hook') => (await (await server.fetch(`/api/endpoint/${name}/requests`)).json());

  it('shows what a webhook sender sent: time, method, path and query, headers and body', async () => {
    await server.fetch('/endpoint/hook?attempt=1', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': 'sha256=abc' },
      body: '{"event":"push"}',
    });
    const body = await log();
    expect(body.success).to.equal(true);
    expect(body.name).to.equal('hook');
    const [entry] = body.requests;
    expect(entry).to.deep.include({
      method: 'POST',
      url: '/endpoint/hook?attempt=1',
      ip: '127.0.0.1',
      body: '{"event":"push"}',
      bodyTruncated: false,
    });
    expect(entry.headers).to.include({ 'content-type': 'application/json', 'x-signature': 'sha256=abc' });
    expect(Date.parse(entry.time)).to.be.closeTo(Date.now(), 10_000);
  });

  it('logs each request at the time it came in, to the millisecond', async () => {
    const timed = async () => {
      const before = Date.now();
      await server.fetch('/endpoint/hook');
      const [entry] = (await log()).requests;
      return { before, time: Date.parse(entry.time), after: Date.now() };
    };
    const first = await timed();
    // Into the next millisecond without a sleep: the time is made once a millisecond.
    while (Date.now() <= first.after);
    for (const { before, time, after } of [first, await timed()]) {
      expect(time).to.be.within(before, after);
    }
  });

  it('lists the newest request first', async () => {
    for (const n of [1, 2, 3]) await server.fetch(`/endpoint/hook?n=${n}`);
    const urls = (await log()).requests.map((r: { url: string }) => r.url);
    expect(urls).to.deep.equal(['/endpoint/hook?n=3', '/endpoint/hook?n=2', '/endpoint/hook?n=1']);
  });

  it('keeps only the last 100 requests', async () => {
    for (let n = 0; n < 105; n++) await server.fetch(`/endpoint/hook?n=${n}`);
    const { requests } = await log();
    expect(requests).to.have.length(100);
    expect(requests[0].url).to.equal('/endpoint/hook?n=104');
    expect(requests[99].url).to.equal('/endpoint/hook?n=5');
  });

  it('keeps the first 64 KiB of a larger body and says it was cut', async () => {
    const body = 'a'.repeat(64 * 1024) + 'b'.repeat(1000);
    const res = await server.fetch('/endpoint/hook', { method: 'POST', body });
    expect(res.status).to.equal(200);
    const [entry] = (await log()).requests;
    expect(entry.body).to.equal('a'.repeat(64 * 1024));
    expect(entry.bodyTruncated).to.equal(true);
  });

  it('starts empty for a new endpoint', async () => {
    expect((await log()).requests).to.deep.equal([]);
  });

  it('survives a replace of the endpoint', async () => {
    await server.fetch('/endpoint/hook');
    await server.putJson('/api/endpoint/hook', { data: 2 });
    expect((await log()).requests).to.have.length(1);
  });

  it('is dropped with the endpoint when it is deleted', async () => {
    await server.fetch('/endpoint/hook');
    await server.fetch('/api/endpoint/hook', { method: 'DELETE' });
    await addEndpoint(server, { name: 'hook', data: 1 });
    expect((await log()).requests).to.deep.equal([]);
  });
});

describe('request log behind a trusted proxy', () => {
  for (const [trustProxy, ip] of [
    [true, '203.0.113.7'],
    [false, '127.0.0.1'],
  ] as const) {
    it(`records ${ip} as the client address when --trust-proxy is ${trustProxy ? 'on' : 'off'}`, async () => {
      const server = await startMockServer({ config: { trustProxy } });
      try {
        await addEndpoint(server, { name: 'p', data: 1 });
        await server.fetch('/endpoint/p', { headers: { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' } });
        const { requests } = await (await server.fetch('/api/endpoint/p/requests')).json();
        expect(requests[0].ip).to.equal(ip);
      } finally {
        await server.close();
      }
    });
  }
});

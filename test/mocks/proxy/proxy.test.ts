import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProxySettings } from '../../../src/mocks/proxy/proxy.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { until } from '../../helpers/until.js';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';
import { startUpstream, type Upstream } from './upstream.js';
import { openSocket, refusedSocket } from '../streams/socket-client.js';

const SETTINGS = { timeoutMs: 30_000, maxConnections: 100, record: false, recordCookies: false, maxRecordBytes: 1e6 };

function proxyTo(target: string, more: Partial<ProxySettings> = {}) {
  return { config: { proxy: { ...SETTINGS, target, ...more } } };
}

/** A port nothing listens on: one that was just closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('serve-mocks --proxy: forwarding', () => {
  let upstream: Upstream;
  let server: TestMockServer;
  beforeEach(async () => {
    upstream = await startUpstream();
    server = await startMockServer(proxyTo(`${upstream.url}/api`));
  });
  afterEach(async () => {
    await server.close();
    await upstream.close();
  });

  it('forwards method, path, query, end-to-end headers and body to the target', async () => {
    const head = [
      'POST /endpoint/users/7?sort=name&x=1 HTTP/1.1',
      'Host: mocks.test',
      'Connection: close, x-hop',
      'X-Hop: no',
      'X-Trace: abc',
      'Content-Type: text/plain',
      'Content-Length: 14',
    ];
    const res = await rawRequest(server.url, `${head.join('\r\n')}\r\n\r\nhello upstream`);
    expect(res.status).to.equal(200);
    const [got] = upstream.received;
    expect(got!.method).to.equal('POST');
    expect(got!.url).to.equal('/api/users/7?sort=name&x=1');
    expect(got!.body).to.equal('hello upstream');
    expect(got!.headers['x-trace']).to.equal('abc');
    expect(got!.headers['x-hop']).to.equal(undefined);
    expect(got!.headers.host).to.equal(new URL(upstream.url).host);
  });

  it('passes the status, headers and body back with the proxied header, without hop-by-hop headers', async () => {
    upstream.answer = (_req, res) => {
      res.writeHead(418, { 'content-type': 'text/plain', 'x-up': 'yes', 'keep-alive': 'timeout=5' });
      res.end('short and stout');
    };
    const res = await server.fetch('/endpoint/teapot');
    expect(res.status).to.equal(418);
    expect(res.headers.get('x-up')).to.equal('yes');
    expect(res.headers.get('x-snippetkit-proxied')).to.equal(`${upstream.url}/api`);
    expect(await res.text()).to.equal('short and stout');
    expect(server.logs.some((line) => line.includes('proxy GET /endpoint/teapot -> 418'))).to.equal(true);
  });

  it('never forwards a request an endpoint answers', async () => {
    await addEndpoint(server, { name: 'local', path: 'users/:id', data: { mine: true } });
    const res = await server.fetch('/endpoint/users/3');
    expect(await res.json()).to.deep.equal({ mine: true });
    expect(upstream.received).to.have.length(0);
  });

  it('forwards a method the matching route does not allow instead of a 405', async () => {
    await addEndpoint(server, { name: 'only-get', path: 'things', methods: ['GET'], data: [] });
    const res = await server.fetch('/endpoint/things', { method: 'DELETE' });
    expect(res.status).to.equal(200);
    expect(upstream.received.map((r) => r.method)).to.deep.equal(['DELETE']);
  });

  it('aborts the upstream request when the client leaves', async () => {
    let closed = false;
    upstream.answer = (req) => req.socket.on('close', () => (closed = true));
    const controller = new AbortController();
    const pending = server.fetch('/endpoint/slow', { signal: controller.signal }).catch(() => undefined);
    await until(() => upstream.received.length === 1);
    controller.abort();
    await pending;
    await until(() => closed);
  });
});

describe('serve-mocks --proxy: upstream errors', () => {
  let server: TestMockServer | undefined;
  let other: Server | undefined;
  afterEach(async () => {
    await server?.close();
    if (other) await new Promise((resolve) => other!.close(resolve));
    other = undefined;
  });

  it('answers 502 naming the target when the connection is refused', async () => {
    const target = `http://127.0.0.1:${await closedPort()}`;
    server = await startMockServer(proxyTo(target));
    const res = await server.fetch('/endpoint/x');
    expect(res.status).to.equal(502);
    expect(await res.json()).to.deep.include({ success: false, target, cause: 'connection refused (ECONNREFUSED)' });
  });

  it('answers 504 when the target does not answer within --proxy-timeout', async () => {
    other = createServer(() => undefined);
    await new Promise<void>((resolve) => other!.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    server = await startMockServer(proxyTo(target, { timeoutMs: 200 }));
    const res = await server.fetch('/endpoint/x');
    expect(res.status).to.equal(504);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).to.deep.include({ target, cause: 'timed out: no answer within 200 ms' });
    other.closeAllConnections();
  });

  it('answers 502 with a TLS cause for an https target at a plain http port', async () => {
    const upstream = await startUpstream();
    try {
      const target = upstream.url.replace('http:', 'https:');
      server = await startMockServer(proxyTo(target));
      const res = await server.fetch('/endpoint/x');
      expect(res.status).to.equal(502);
      const body = (await res.json()) as { cause: string; target: string };
      expect(body.target).to.equal(target);
      expect(body.cause).to.match(/^TLS failure: /);
    } finally {
      await upstream.close();
    }
  });

  it('answers 503 past the cap of upstream requests at once', async () => {
    const upstream = await startUpstream();
    upstream.answer = () => undefined;
    try {
      server = await startMockServer(proxyTo(upstream.url, { maxConnections: 1 }));
      const controller = new AbortController();
      const first = server.fetch('/endpoint/a', { signal: controller.signal }).catch(() => undefined);
      await until(() => upstream.received.length === 1);
      const res = await server.fetch('/endpoint/b');
      expect(res.status).to.equal(503);
      controller.abort();
      await first;
    } finally {
      await upstream.close();
    }
  });
});

describe('serve-mocks --proxy: paths', () => {
  it('refuses a path that climbs out of the target base path, and forwards nothing', async () => {
    const upstream = await startUpstream();
    const server = await startMockServer(proxyTo(`${upstream.url}/api`));
    try {
      for (const path of ['/endpoint/../admin', '/endpoint/x/%2e%2e/%2E%2E/admin']) {
        const head = `GET ${path} HTTP/1.1\r\nHost: mocks.test\r\nConnection: close\r\n\r\n`;
        const res = await rawRequest(server.url, head);
        expect(res.status, path).to.equal(400);
        expect(JSON.parse(res.body)).to.deep.include({ message: `the path climbs out of ${upstream.url}/api` });
      }
      expect(upstream.received).to.have.length(0);
    } finally {
      await server.close();
      await upstream.close();
    }
  });
});

// Streams and --proxy (issue 29): an endpoint of the mocks answers its upgrades itself; an upgrade to no
// endpoint goes upstream as any request does, as a plain GET (Upgrade is hop-by-hop), and its answer ends it.
describe('serve-mocks --proxy: WebSocket and event-stream endpoints', () => {
  let upstream: Upstream;
  let server: TestMockServer;
  before(async () => {
    upstream = await startUpstream();
    server = await startMockServer(proxyTo(upstream.url));
    await addEndpoint(server, { name: 'echo', kind: 'websocket', echo: true });
    await addEndpoint(server, { name: 'ticks', kind: 'sse', events: [{ data: 'one' }] });
  });
  after(async () => {
    await server.close();
    await upstream.close();
  });

  it('answers a WebSocket endpoint itself, and never asks the upstream', async () => {
    const socket = await openSocket(`${server.url}/endpoint/echo`);
    try {
      socket.send('hello');
      expect(await socket.next()).to.equal('hello');
    } finally {
      socket.close();
    }
    expect(upstream.received).to.deep.equal([]);
  });

  it('streams an event-stream endpoint itself', async () => {
    const res = await fetch(`${server.url}/endpoint/ticks`);
    expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('data: one')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(upstream.received).to.deep.equal([]);
  });

  it('sends an upgrade to no endpoint upstream as a plain GET, and answers with what the upstream answered', async () => {
    const refused = await refusedSocket(`${server.url}/endpoint/live`);
    expect([refused.status, refused.body]).to.deep.equal([200, { method: 'GET', url: '/live' }]);
    expect(upstream.received).to.have.length(1);
    expect(upstream.received[0]!.headers.upgrade).to.equal(undefined);
  });
});

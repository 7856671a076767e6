import { expect } from 'chai';
import { ENDPOINT_SANDBOX } from '../../../src/mocks/serve/answer-head.js';
import { startUpstream, type Upstream } from '../proxy/upstream.js';
import { startMockServer, type TestMockServer } from '../server.js';

// An endpoint may answer HTML; shown as a page on the mock server's own origin, its script would be the
// mock page to the origin gate. Every /endpoint/ answer carries a sandbox (no allow-same-origin) that the
// endpoint's own headers cannot lift: browsers enforce every policy of the list.
describe('answers under /endpoint/ run sandboxed when shown as pages', () => {
  let server: TestMockServer;
  let upstream: Upstream;
  before(async () => {
    upstream = await startUpstream();
    upstream.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': "default-src 'self'" });
      res.end('<script>fetch("/api/endpoints")</script>');
    };
    const proxy = { target: upstream.url, timeoutMs: 30_000, maxConnections: 100, record: false, recordCookies: false, maxRecordBytes: 1e6 };
    server = await startMockServer({ config: { proxy } });
    const page = { body: '<script>fetch("/api/endpoints")</script>', headers: { 'Content-Type': 'text/html' } };
    expect((await server.putJson('/api/endpoint/page', page)).status).to.equal(201);
    const lifted = { ...page, headers: { ...page.headers, 'Content-Security-Policy': "script-src 'self'" } };
    expect((await server.putJson('/api/endpoint/lifted', lifted)).status).to.equal(201);
    const posts = { data: [{ id: 1 }], collection: true };
    expect((await server.putJson('/api/endpoint/posts', posts)).status).to.equal(201);
  });
  after(async () => {
    await server.close();
    await upstream.close();
  });

  const policies = (res: Response) => (res.headers.get('content-security-policy') ?? '').split(/,\s*/);

  it('sends the sandbox, without allow-same-origin, on an HTML endpoint', async () => {
    const res = await server.fetch('/endpoint/page');
    expect(res.headers.get('content-type')).to.equal('text/html');
    expect(policies(res)).to.deep.equal([ENDPOINT_SANDBOX]);
    expect(ENDPOINT_SANDBOX).to.match(/^sandbox /).and.not.include('allow-same-origin');
  });

  it('keeps the sandbox beside a policy the endpoint sets itself', async () => {
    const res = await server.fetch('/endpoint/lifted');
    expect(policies(res)).to.include(ENDPOINT_SANDBOX).and.include("script-src 'self'");
  });

  it('sends it on collections and on what the proxy forwards, upstream policy kept beside it', async () => {
    expect(policies(await server.fetch('/endpoint/posts'))).to.deep.equal([ENDPOINT_SANDBOX]);
    expect(policies(await server.fetch('/endpoint/anything/else'))).to.deep.equal(["default-src 'self'", ENDPOINT_SANDBOX]);
  });
});

import { expect } from 'chai';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';

const ENDPOINTS = 20;
const PER_ENDPOINT = 100;

/** 100 requests to each of 20 endpoints, a 1 KB JSON body each, 50 at a time. */
async function fillLogs(server: TestMockServer): Promise<void> {
  const sends: (() => Promise<unknown>)[] = [];
  for (let e = 0; e < ENDPOINTS; e++) {
    await addEndpoint(server, { name: `e${e}`, methods: ['POST'], data: {} });
    for (let i = 0; i < PER_ENDPOINT; i++) {
      const body = JSON.stringify({ items: [{ qty: i % 3, note: 'n'.repeat(1000) }] });
      sends.push(() => server.fetch(`/endpoint/e${e}`, { method: 'POST', body }).then((res) => res.arrayBuffer()));
    }
  }
  for (let at = 0; at < sends.length; at += 50) await Promise.all(sends.slice(at, at + 50).map((send) => send()));
}

const SCHEMA = { type: 'object', properties: { items: { type: 'array', items: { properties: { qty: { minimum: 1 } } } } } };

// Verification matches every logged request: under --max-request-cpu it is one request's CPU, no more.
describe('request verification under the CPU budget', function () {
  this.timeout(60_000);
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer({ config: { maxRequestCpu: 1 }, store: { logSize: PER_ENDPOINT } });
    await fillLogs(server);
  });
  after(() => server.close());

  it('answers 503 naming the budget past it, never a partial count', async () => {
    const res = await server.fetch('/api/verify', { method: 'POST', body: JSON.stringify({ bodySchema: SCHEMA, atLeast: 1 }) });
    expect(res.status).to.equal(503);
    expect(await res.json()).to.deep.equal({
      success: false,
      message: 'the verification went over the CPU budget of one request (1 ms, --max-request-cpu)',
    });
    expect(server.errors).to.deep.equal([]);
  });

  it('holds GET /api/requests to the same budget', async () => {
    const res = await server.fetch(`/api/requests?bodyContains=${encodeURIComponent('{"items":[{"qty":2}]}')}`);
    expect(res.status).to.equal(503);
    expect(((await res.json()) as { message: string }).message).to.equal(
      'the verification went over the CPU budget of one request (1 ms, --max-request-cpu)',
    );
  });

  it('answers within the default budget over the same 2,000 requests', async () => {
    const roomy = await startMockServer({ store: { logSize: PER_ENDPOINT } });
    try {
      await fillLogs(roomy);
      const res = await roomy.fetch('/api/verify', { method: 'POST', body: JSON.stringify({ bodySchema: SCHEMA, count: 1320 }) });
      expect(res.status).to.equal(200);
    } finally {
      await roomy.close();
    }
  });
});

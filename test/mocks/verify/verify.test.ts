import { expect } from 'chai';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';

type Answer = { status: number; body: Record<string, any> };

// POST /api/verify and GET /api/requests over HTTP, as a suite in any language drives them.
describe('request verification: POST /api/verify and GET /api/requests', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer({ store: { logSize: 3 } });
    await addEndpoint(server, { name: 'hook', path: 'hooks/:id', methods: ['POST'], data: { ok: true } });
    await addEndpoint(server, { name: 'user', data: {} });
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      server.fetch(`/endpoint/${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
    await post('hooks/1?kind=paid', '{"amount":5,"currency":"EUR"}', { 'X-Trace': 'a1' });
    await post('hooks/2?kind=refund', '{"amount":2}');
    await server.fetch('/endpoint/user');
    await server.fetch('/endpoint/nowhere?q=1');
  });
  after(() => server.close());

  const verify = async (body: unknown): Promise<Answer> => {
    const res = await server.fetch('/api/verify', { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const requests = async (query: string): Promise<Answer> => {
    const res = await server.fetch(`/api/requests?${query}`);
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it('answers 200 with the matching requests, newest first, when the count holds', async () => {
    const { status, body } = await verify({ name: 'hook', method: 'post', count: 2 });
    expect(status).to.equal(200);
    expect(body).to.include({ success: true, matched: 2 });
    expect(body.requests.map((r: { url: string }) => r.url)).to.deep.equal(['/endpoint/hooks/2?kind=refund', '/endpoint/hooks/1?kind=paid']);
    expect(body.requests[0]).to.include({ endpoint: 'hook', method: 'POST', status: 200 });
  });

  it('matches path, query, headers in any case, and a body by text or by JSON it contains', async () => {
    const matched = async (pattern: object) => (await verify(pattern)).body.matched;
    expect(await matched({ path: '/endpoint/hooks/1', query: { kind: 'paid' }, headers: { 'x-TRACE': 'a1' } })).to.equal(1);
    expect(await matched({ path: 'hooks/1', bodyContains: '"currency":"EUR"' })).to.equal(1);
    expect(await matched({ bodyContains: '{ "currency": "EUR", "amount": 5 }' }), 'JSON containment, any spacing or order').to.equal(1);
    expect(await matched({ bodyContains: '{"amount":5,"currency":"USD"}' })).to.equal(0);
  });

  it('answers 417 with what was expected and the closest requests, field by field', async () => {
    const { status, body } = await verify({ name: 'hook', count: 1, query: { kind: 'paid' }, bodyContains: '{"amount":2}' });
    expect(status).to.equal(417);
    expect(body).to.include({ success: false, matched: 0 });
    expect(body.message).to.equal('expected exactly 1 request matching {"name":"hook","query":{"kind":"paid"},"bodyContains":"{\\"amount\\":2}"}, got 0');
    expect(body.expected).to.deep.equal({ name: 'hook', query: { kind: 'paid' }, bodyContains: '{"amount":2}', count: 1 });
    expect(body.nearMisses.map((m: { request: { url: string }; differences: unknown[] }) => [m.request.url, m.differences])).to.deep.equal([
      ['/endpoint/hooks/2?kind=refund', [{ field: 'query.kind', expected: 'paid', actual: 'refund' }]],
      [
        '/endpoint/hooks/1?kind=paid',
        [{ field: 'body', expected: 'contains {"amount":2}', actual: '{"amount":5,"currency":"EUR"}' }],
      ],
    ]);
  });

  it('takes atLeast and atMost, and at least one when no count is given', async () => {
    expect((await verify({ name: 'hook', atLeast: 1, atMost: 2 })).status).to.equal(200);
    expect((await verify({ name: 'hook', atMost: 1 })).status).to.equal(417);
    expect((await verify({ name: 'user' })).status).to.equal(200);
    expect((await verify({ name: 'user', method: 'DELETE' })).body.message).to.match(/^expected at least 1 request matching/);
    expect((await verify({ name: 'user', method: 'DELETE', count: 0 })).status).to.equal(200);
  });

  it('looks at every log without a name, the unmatched requests included', async () => {
    const { body } = await verify({ path: 'nowhere', query: { q: '1' }, count: 1 });
    expect(body.requests[0]).to.include({ endpoint: null, status: 404 });
    const all = await requests('');
    expect(all.body.count).to.equal(4);
    const listed = all.body.requests as { endpoint: string | null; time: string }[];
    // Newest first by time; requests of one millisecond in different logs come in no set order.
    expect(listed.map((r) => r.endpoint)).to.have.members([null, 'user', 'hook', 'hook']);
    expect(listed.map((r) => r.time)).to.deep.equal(listed.map((r) => r.time).sort().reverse());
  });

  it('queries the journal by parameters, with a limit', async () => {
    const { body } = await requests('method=POST&query.kind=refund&headers.content-type=application/json');
    expect(body.requests.map((r: { url: string }) => r.url)).to.deep.equal(['/endpoint/hooks/2?kind=refund']);
    expect((await requests('limit=1')).body).to.include({ count: 4 }).and.have.property('requests').with.length(1);
    expect((await requests('name=hook&bodyContains=EUR')).body.count).to.equal(1);
  });

  it('says when a log in scope is full, so a count may miss older requests', async () => {
    for (let i = 0; i < 3; i++) await server.fetch('/endpoint/user');
    const { body } = await verify({ name: 'user', atLeast: 1 });
    expect(body).to.include({ matched: 3, incomplete: true });
    expect((await verify({ name: 'hook' })).body).to.not.have.property('incomplete');
  });

  it('refuses bad patterns with a 400 naming the field, and an unknown endpoint with a 404', async () => {
    const refusal = async (body: unknown) => {
      const { status, body: answer } = await verify(body);
      return [status, answer.field];
    };
    expect(await refusal({ name: 'nope' })).to.deep.equal([404, 'name']);
    expect(await refusal({ count: 1.5 })).to.deep.equal([400, 'count']);
    expect(await refusal({ count: -1 })).to.deep.equal([400, 'count']);
    expect(await refusal({ count: 1, atLeast: 1 })).to.deep.equal([400, 'count']);
    expect(await refusal({ atLeast: 3, atMost: 1 })).to.deep.equal([400, 'atLeast']);
    expect(await refusal({ method: 7 })).to.deep.equal([400, 'method']);
    expect(await refusal({ query: ['a'] })).to.deep.equal([400, 'query']);
    expect(await refusal({ headers: { a: 1 } })).to.deep.equal([400, 'headers.a']);
    expect(await refusal({ query: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) })).to.deep.equal([400, 'query']);
    expect(await refusal({ bodyContains: 'x'.repeat(64 * 1024 + 1) })).to.deep.equal([400, 'bodyContains']);
    expect(await refusal({ surprise: true })).to.deep.equal([400, 'surprise']);
    expect(await refusal('[1]')).to.deep.equal([400, undefined]);
    expect((await verify('{not json')).status).to.equal(400);
    for (const query of ['limit=0', 'limit=1001', 'limit=x', 'method=GET&method=POST', 'what=1']) {
      expect((await requests(query)).status, query).to.equal(400);
    }
  });

  it('answers an empty body as "at least one request of any kind"', async () => {
    const res = await server.fetch('/api/verify', { method: 'POST' });
    expect(res.status).to.equal(200);
  });
});

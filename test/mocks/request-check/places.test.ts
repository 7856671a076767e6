import { expect } from 'chai';
import { startMockServer, type TestMockServer } from '../server.js';

// The Petstore fixtures have no header or cookie parameter a request can break, nor a key in a query or cookie.
describe('Request validation of headers, cookies, and keys in a query or a cookie', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer({ config: { validate: true } });
    const expects = {
      params: [
        { in: 'header', name: 'X-Request-Id', required: true, schema: { type: 'string', format: 'uuid' } },
        { in: 'header', name: 'X-Ids', schema: { type: 'array', items: { type: 'integer' } } },
        { in: 'cookie', name: 'session', required: true, schema: { type: 'string', minLength: 8 } },
        { in: 'query', name: 'ids', explode: false, schema: { type: 'array', items: { type: 'integer' }, maxItems: 3 } },
      ],
      security: [[{ in: 'query', name: 'key' }], [{ in: 'cookie', name: 'token' }]],
    };
    const res = await server.putJson('/api/endpoint/add', { name: 'places', data: 'ok', expects });
    expect(res.status, await res.clone().text()).to.equal(201);
  });
  after(() => server.close());

  const good = { 'x-request-id': '3f1c9b0e-7d2a-4c1e-9a55-0d4e6b8f2a10', cookie: 'session=abcdefgh; token=t' };

  it('answers a request that meets every rule', async () => {
    const res = await server.fetch('/endpoint/places?ids=1,2,3', { headers: { ...good, 'x-ids': '4, 5' } });
    expect(res.status, await res.clone().text()).to.equal(200);
  });

  it('refuses a missing header, a header of the wrong format and a short cookie with 400, listing each', async () => {
    const res = await server.fetch('/endpoint/places', { headers: { 'x-ids': 'a', cookie: 'session=abc; token=t' } });
    expect(res.status).to.equal(400);
    const { errors } = await res.json();
    expect(errors).to.deep.include({ in: 'header', name: 'x-request-id', path: '/x-request-id', rule: 'required', expected: 'present', message: "must have required property 'x-request-id'" });
    expect(errors).to.deep.include({ in: 'header', name: 'x-ids', path: '/x-ids/0', rule: 'type', expected: 'integer', message: 'must be integer' });
    expect(errors).to.deep.include({ in: 'cookie', name: 'session', path: '/session', rule: 'minLength', expected: 'minLength 8', message: 'must NOT have fewer than 8 characters' });
  });

  it('splits a list given in one value (explode: false) and checks its bounds', async () => {
    const res = await server.fetch('/endpoint/places?ids=1,2,3,4', { headers: good });
    expect(res.status).to.equal(400);
    expect((await res.json()).errors).to.deep.equal([{ in: 'query', name: 'ids', path: '/ids', rule: 'maxItems', expected: 'maxItems 3', message: 'must NOT have more than 3 items' }]);
  });

  it('lets in a key in the query instead of the cookie, and refuses neither with 401 naming both', async () => {
    const headers = { 'x-request-id': good['x-request-id'], cookie: 'session=abcdefgh' };
    expect((await server.fetch('/endpoint/places?key=k', { headers })).status).to.equal(200);
    const res = await server.fetch('/endpoint/places', { headers });
    expect(res.status).to.equal(401);
    expect(res.headers.get('www-authenticate')).to.equal(null);
    expect((await res.json()).errors.map((e: { in: string; expected: string }) => e.expected)).to.deep.equal(["a query 'key'", "a cookie 'token'"]);
  });
});

import { expect } from 'chai';
import { startMockServer, type TestMockServer } from '../server.js';
import { importFixture } from '../sources/import-fixture.js';

const BEARER = { authorization: 'Bearer token' };
const JSON_TYPE = { 'content-type': 'application/json' };

describe('Request validation on the Swagger Petstore (serve-mocks --validate)', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer({ config: { validate: true } });
    await importFixture(server, 'swagger-petstore-3.0.yaml');
  });
  after(() => server.close());

  it('answers a request that meets the operation as documented', async () => {
    const res = await server.fetch('/endpoint/pet/findByStatus?status=sold', { headers: BEARER });
    expect(res.status).to.equal(200);
  });

  it('refuses a query parameter outside its enum with 400 and the rule broken', async () => {
    const res = await server.fetch('/endpoint/pet/findByStatus?status=lost', { headers: BEARER });
    expect(res.status).to.equal(400);
    const body = await res.json();
    expect(body.errors).to.deep.equal([
      { in: 'query', name: 'status', path: '/status', rule: 'enum', expected: '"available", "pending", "sold"', message: 'must be equal to one of the allowed values' },
    ]);
  });

  it('refuses a path parameter of the wrong type with 400', async () => {
    const res = await server.fetch('/endpoint/pet/fido', { headers: { api_key: 'k' } });
    expect(res.status).to.equal(400);
    expect((await res.json()).errors).to.deep.equal([
      { in: 'path', name: 'petId', path: '/petId', rule: 'type', expected: 'integer', message: 'must be integer' },
    ]);
  });

  it('reads a query list from repeated parameters and checks each item', async () => {
    expect((await server.fetch('/endpoint/pet/findByTags?tags=a&tags=b', { headers: BEARER })).status).to.equal(200);
  });

  it('refuses a request without credentials of any required scheme with 401 and a challenge', async () => {
    const res = await server.fetch('/endpoint/pet/findByStatus?status=sold');
    expect(res.status).to.equal(401);
    expect(res.headers.get('www-authenticate')).to.equal('Bearer');
    expect((await res.json()).errors).to.deep.equal([
      { in: 'security', name: 'authorization', path: '', rule: 'security', expected: 'authorization: bearer …', message: 'no authorization: bearer …' },
    ]);
  });

  it('lets in any one of the alternatives of security requirements (api_key or OAuth)', async () => {
    expect((await server.fetch('/endpoint/pet/1', { headers: { api_key: 'k' } })).status).to.equal(200);
    expect((await server.fetch('/endpoint/pet/1', { headers: BEARER })).status).to.equal(200);
    expect((await server.fetch('/endpoint/pet/1', { headers: { authorization: 'Basic eDp5' } })).status).to.equal(401);
  });

  it('refuses a body that breaks its schema with 422, listing every problem', async () => {
    const res = await server.fetch('/endpoint/pet', { method: 'POST', headers: { ...BEARER, ...JSON_TYPE }, body: '{"name":7}' });
    expect(res.status).to.equal(422);
    const { errors } = await res.json();
    expect(errors).to.deep.include({ in: 'body', path: '/photoUrls', rule: 'required', expected: 'present', message: "must have required property 'photoUrls'" });
    expect(errors).to.deep.include({ in: 'body', path: '/name', rule: 'type', expected: 'string', message: 'must be string' });
  });

  it('accepts a body that meets its schema, in any documented media type', async () => {
    const pet = JSON.stringify({ name: 'doggie', photoUrls: ['a'], status: 'sold' });
    const res = await server.fetch('/endpoint/pet', { method: 'POST', headers: { ...BEARER, ...JSON_TYPE }, body: pet });
    expect(res.status).to.equal(200);
    const xml = await server.fetch('/endpoint/pet', { method: 'POST', headers: { ...BEARER, 'content-type': 'application/xml' }, body: '<pet/>' });
    expect(xml.status).to.equal(200);
  });

  it('refuses a body of an undocumented content type with 415 naming the documented ones', async () => {
    const res = await server.fetch('/endpoint/pet', { method: 'POST', headers: { ...BEARER, 'content-type': 'text/csv' }, body: 'a,b' });
    expect(res.status).to.equal(415);
    expect((await res.json()).errors).to.deep.equal([
      {
        in: 'body',
        name: 'content-type',
        path: '',
        rule: 'contentType',
        expected: 'application/json, application/xml, application/x-www-form-urlencoded',
        message: 'Content-Type text/csv; the body may be application/json, application/xml, application/x-www-form-urlencoded',
      },
    ]);
  });

  it('checks a URL-encoded form body against its schema, its fields read as their types', async () => {
    const form = { ...BEARER, 'content-type': 'application/x-www-form-urlencoded' };
    const ok = await server.fetch('/endpoint/pet', { method: 'POST', headers: form, body: 'name=rex&photoUrls=a&id=7' });
    expect(ok.status).to.equal(200);
    const res = await server.fetch('/endpoint/pet', { method: 'POST', headers: form, body: 'name=rex&photoUrls=a&id=seven' });
    expect(res.status).to.equal(422);
    expect((await res.json()).errors).to.deep.equal([{ in: 'body', path: '/id', rule: 'type', expected: 'integer', message: 'must be integer' }]);
  });

  it('refuses a missing required body with 422', async () => {
    const res = await server.fetch('/endpoint/pet', { method: 'POST', headers: BEARER });
    expect(res.status).to.equal(422);
    expect((await res.json()).errors).to.deep.equal([{ in: 'body', path: '', rule: 'required', expected: 'a request body', message: 'the request has no body' }]);
  });

  it('refuses a JSON body that does not parse with 422', async () => {
    const res = await server.fetch('/endpoint/pet', { method: 'POST', headers: { ...BEARER, ...JSON_TYPE }, body: '{"name":' });
    expect(res.status).to.equal(422);
    expect((await res.json()).errors[0]).to.include({ in: 'body', rule: 'json' });
  });

  it('logs a refused request in the endpoint log with the status it got', async () => {
    await server.fetch('/endpoint/store/order/x');
    const res = await server.fetch('/api/endpoint/getOrderById/requests');
    const { requests } = await res.json();
    expect(requests[0]).to.include({ url: '/endpoint/store/order/x', status: 400 });
  });
});

describe('Request validation chosen per record', () => {
  let server: TestMockServer;
  afterEach(() => server.close());

  it('checks a record with "validate": true on a server without --validate', async () => {
    server = await startMockServer();
    await importFixture(server, 'petstore-expanded-2.0.yaml');
    const res = await server.fetch('/endpoint/pets?limit=ten');
    expect(res.status).to.equal(200);
    const record = (await (await server.fetch('/api/endpoint/findPets')).json()) as Record<string, unknown>;
    const put = await server.putJson('/api/endpoint/findPets', { ...record, validate: true });
    expect(put.status, await put.clone().text()).to.equal(200);
    const refused = await server.fetch('/endpoint/pets?limit=ten');
    expect(refused.status).to.equal(400);
    expect((await refused.json()).errors[0]).to.include({ in: 'query', name: 'limit', rule: 'type', expected: 'integer' });
  });

  it('leaves a record with "validate": false unchecked on a server with --validate', async () => {
    server = await startMockServer({ config: { validate: true } });
    const expects = { params: [{ in: 'query', name: 'n', required: true, schema: { type: 'integer' } }] };
    await server.putJson('/api/endpoint/add', { name: 'free', data: 1, expects, validate: false });
    await server.putJson('/api/endpoint/add', { name: 'strict', data: 1, expects });
    expect((await server.fetch('/endpoint/free')).status).to.equal(200);
    expect((await server.fetch('/endpoint/strict?n=1')).status).to.equal(200);
    const res = await server.fetch('/endpoint/strict');
    expect(res.status).to.equal(400);
    expect((await res.json()).errors).to.deep.equal([
      { in: 'query', name: 'n', path: '/n', rule: 'required', expected: 'present', message: "must have required property 'n'" },
    ]);
  });
});

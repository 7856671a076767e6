import { expect } from 'chai';
import { startMockServer, type TestMockServer } from '../server.js';

const JSON_TYPE = { 'content-type': 'application/json' };

/** 1.4 KiB: `$defs` d0..d21, each an anyOf of two $refs to the next: 2^22 paths for ajv to try on a body `1`. */
function schemaBomb(): Record<string, unknown> {
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < 22; i++) $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  $defs.d22 = { type: 'string' };
  return { $ref: '#/$defs/d0', $defs };
}

describe('Request validation against hostile records and requests', () => {
  let server: TestMockServer;
  before(async () => {
    // Generous: these are not about the budget, and the suite runs beside others on a loaded machine.
    server = await startMockServer({ config: { validate: true, maxRequestCpu: 5000 } });
  });
  after(() => server.close());

  const add = async (name: string, expects: unknown) => {
    const res = await server.putJson('/api/endpoint/add', { name, data: 'ok', expects });
    expect(res.status, await res.clone().text()).to.equal(201);
  };
  const post = (name: string, body: string) => server.fetch(`/endpoint/${name}`, { method: 'POST', headers: JSON_TYPE, body });

  it('runs a backtracking pattern on RE2, in linear time', async () => {
    await add('redos', { params: [{ in: 'query', name: 'q', schema: { type: 'string', pattern: '^(a+)+$' } }] });
    const started = performance.now();
    const res = await server.fetch(`/endpoint/redos?q=${'a'.repeat(8000)}b`);
    expect(res.status).to.equal(400);
    expect((await res.json()).errors[0]).to.include({ in: 'query', name: 'q', rule: 'pattern' });
    expect(performance.now() - started).to.be.below(3000);
  });

  it('answers a body nested 20,000 deep under a recursive schema with a 422, not a crash', async () => {
    const schema = { $ref: '#/$defs/list', $defs: { list: { type: 'array', items: { $ref: '#/$defs/list' } } } };
    await add('deep', { body: { content: { 'application/json': { schema } } } });
    const res = await post('deep', `${'['.repeat(20_000)}1${']'.repeat(20_000)}`);
    expect(res.status).to.equal(422);
  });

  it('lists at most 20 problems for a body of thousands of wrong items', async () => {
    await add('many', { body: { content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } } });
    const res = await post('many', JSON.stringify(Array.from({ length: 5000 }, (_, i) => i)));
    expect(res.status).to.equal(422);
    expect((await res.json()).errors).to.have.length(20);
  });

  it('refuses a body longer than it checks with a 413, and still logs the request', async () => {
    await add('long', { body: { content: { 'application/json': { schema: { type: 'string' } } } } });
    const res = await post('long', JSON.stringify('x'.repeat(70 * 1024)));
    expect(res.status).to.equal(413);
    const { requests } = await (await server.fetch('/api/endpoint/long/requests')).json();
    expect(requests[0]).to.include({ status: 413, bodyTruncated: true });
  });

  it('answers a schema it cannot compile unchecked and says so once', async () => {
    await add('lookahead', { params: [{ in: 'query', name: 'q', schema: { type: 'string', pattern: '^(?=a)' } }] });
    expect((await server.fetch('/endpoint/lookahead?q=b')).status).to.equal(200);
    expect((await server.fetch('/endpoint/lookahead?q=c')).status).to.equal(200);
    expect(server.logs.filter((line) => line.includes("endpoint 'lookahead'"))).to.have.length(1);
  });

  it('does not take a parameter named like an Object method as given', async () => {
    await add('proto', { params: [{ in: 'query', name: 'constructor', required: true, schema: { type: 'string' } }] });
    const res = await server.fetch('/endpoint/proto');
    expect(res.status).to.equal(400);
    expect((await res.json()).errors[0]).to.include({ name: 'constructor', rule: 'required' });
  });

  const refused = [
    { expects: [], field: 'expects', message: 'expects must be an object' },
    { expects: { params: [{ in: 'body', name: 'a' }] }, field: 'expects.params[0].in', message: 'expects.params[0].in must be one of path, query, header, cookie' },
    { expects: { params: [{ in: 'query', name: '' }] }, field: 'expects.params[0].name', message: 'expects.params[0].name must be 1 to 256 printable characters' },
    { expects: { params: [{ in: 'query', name: 'a' }, { in: 'query', name: 'a' }] }, field: 'expects.params[1].name', message: "expects.params[1]: the query parameter 'a' is given twice" },
    { expects: { body: { content: { json: {} } } }, field: 'expects.body.content', message: "expects.body.content: 'json' is not a media type such as application/json" },
    { expects: { security: [[{ in: 'header', name: 'authorization', scheme: 'a b' }]] }, field: 'expects.security[0][0].scheme', message: 'expects.security[0][0].scheme must be an authentication scheme such as bearer' },
    { expects: { nope: 1 }, field: 'expects.nope', message: "unknown field 'expects.nope'; expects takes params, body, security" },
    { expects: { params: [{ in: 'query', name: 'a', schema: nested(40) }] }, field: 'expects.params[0].schema', message: 'expects.params[0].schema is nested deeper than 32 levels' },
    { expects: { params: [{ in: 'query', name: 'a', schema: { enum: ['x'.repeat(70_000)] } }] }, field: 'expects', message: 'expects is longer than 32768 characters of JSON' },
  ];
  for (const { expects, field, message } of refused) {
    it(`refuses a record whose ${field} is malformed with a 400 naming it, storing nothing`, async () => {
      const res = await server.putJson('/api/endpoint/add', { name: 'bad', data: 1, expects });
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({ success: false, message, field });
      expect(server.store.get('bad')).to.equal(undefined);
    });
  }
});

describe('Request validation within the CPU budget', () => {
  it('stops a schema bomb at the CPU budget with a 503, and stays up', async () => {
    const server = await startMockServer({ config: { validate: true, maxRequestCpu: 100 } });
    try {
      const expects = { body: { content: { 'application/json': { schema: schemaBomb() } } } };
      expect((await server.putJson('/api/endpoint/add', { name: 'bomb', data: 'ok', expects })).status).to.equal(201);
      const started = performance.now();
      const res = await server.fetch('/endpoint/bomb', { method: 'POST', headers: JSON_TYPE, body: '1' });
      expect(res.status).to.equal(503);
      expect((await res.json()).message).to.match(/CPU budget/);
      // Unbounded, this body takes 6.6 s of the event loop (verify/schema-budget.ts).
      expect(performance.now() - started).to.be.below(3000);
      expect((await server.fetch('/api/endpoints')).status).to.equal(200);
    } finally {
      await server.close();
    }
  });
});

describe('Request validation within the records\' memory budget', () => {
  it('charges a compiled schema to the records, and answers 507 when it does not fit', async () => {
    const server = await startMockServer({ config: { validate: true }, store: { maxStoreBytes: 140 * 1024 } });
    try {
      const properties = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i}`, { type: 'integer' }]));
      const expects = { body: { content: { 'application/json': { schema: { type: 'object', properties } } } } };
      const put = await server.putJson('/api/endpoint/add', { name: 'big', data: 1, expects });
      expect(put.status, await put.clone().text()).to.equal(201);
      const small = { params: [{ in: 'query', name: 'n', schema: { type: 'integer' } }] };
      await server.putJson('/api/endpoint/add', { name: 'small', data: 1, expects: small });
      const before = server.store.memory.records.used;
      expect((await server.fetch('/endpoint/small?n=1')).status).to.equal(200);
      expect(server.store.memory.records.used).to.be.greaterThan(before);
      const res = await server.fetch('/endpoint/big', { method: 'POST', headers: JSON_TYPE, body: '{}' });
      expect(res.status).to.equal(507);
      expect((await res.json()).message).to.match(/^checking this endpoint's body application\/json needs \d+ bytes more than the records' memory has left/);
    } finally {
      await server.close();
    }
  });
});

function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = { items: schema };
  return schema;
}

import { expect } from 'chai';
import { startMockServer, type TestMockServer } from '../server.js';

// The example record, with a raw-text response and every optional field set.
const full = {
  name: 'user',
  path: '/users/:id/',
  methods: ['get', 'PUT', 'GET'],
  statusCode: 200,
  data: { id: '{{params.id}}', name: "{{faker 'person.fullName'}}" },
  delay: { min: 100, max: 400 },
  headers: { 'X-Request-Id': '{{uuid}}' },
  template: true,
  responses: [
    { when: { method: 'put' }, statusCode: 204 },
    { when: { query: { role: ['admin', 'root'] }, params: { id: '1' } }, data: { id: '{{params.id}}', admin: true } },
    { when: { headers: { 'X-Fail': '1' } }, fault: 'reset', faultRate: 0.5 },
    { when: { body: { kind: 'csv' } }, body: 'a,b\n1,2', headers: { 'Content-Type': 'text/csv' }, delay: 5 },
  ],
  pick: 'first-match',
  fault: 'hang',
  faultRate: 0.25,
};

// What is stored: one slash trimmed each side, methods upper-cased once each, when normalized.
const stored = {
  success: true,
  name: 'user',
  path: 'users/:id',
  methods: ['GET', 'PUT'],
  statusCode: 200,
  data: full.data,
  delay: { min: 100, max: 400 },
  headers: { 'X-Request-Id': '{{uuid}}' },
  template: true,
  responses: [
    { when: { method: ['PUT'] }, statusCode: 204 },
    { when: { params: { id: '1' }, query: { role: ['admin', 'root'] } }, data: { id: '{{params.id}}', admin: true } },
    { when: { headers: { 'x-fail': '1' } }, fault: 'reset', faultRate: 0.5 },
    { when: { body: { kind: 'csv' } }, body: 'a,b\n1,2', headers: { 'Content-Type': 'text/csv' }, delay: 5 },
  ],
  pick: 'first-match',
  fault: 'hang',
  faultRate: 0.25,
};

describe('mock API: the whole endpoint record', () => {
  let server: TestMockServer;
  beforeEach(async () => {
    server = await startMockServer();
  });
  afterEach(() => server.close());

  it('answers a save with every field, normalized, in the agreed order', async () => {
    const res = await server.putJson('/api/endpoint/add', full);
    expect(res.status).to.equal(201);
    const text = await res.text();
    expect(JSON.parse(text)).to.deep.equal(stored);
    expect(Object.keys(JSON.parse(text))).to.deep.equal(Object.keys(stored));
  });

  it('echoes data byte for byte, in the record and in each response', async () => {
    const body = '{"name":"b","data":{"n":1.50,"s":"\\u00e9"},"responses":[{"data":[1e2, 2]}]}';
    const res = await server.putJson('/api/endpoint/add', body);
    expect(await res.text()).to.equal(
      '{"success":true,"name":"b","statusCode":200,"data":{"n":1.5,"s":"é"},"delay":0,"responses":[{"data":[100,2]}]}',
    );
  });

  it('stores a raw text body instead of data', async () => {
    const headers = { 'Content-Type': 'application/xml' };
    const res = await server.putJson('/api/endpoint/add', { name: 'xml', body: '<a/>', headers });
    expect(res.status).to.equal(201);
    expect(await res.json()).to.deep.equal({
      success: true,
      name: 'xml',
      statusCode: 200,
      body: '<a/>',
      delay: 0,
      headers: { 'Content-Type': 'application/xml' },
    });
  });

  it('stores bytes as base64Body and serves them decoded, never as a template, in the record and in a response', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x7b, 0x7b]); // ends in "{{"
    const record = {
      name: 'logo',
      base64Body: png.toString('base64'),
      headers: { 'Content-Type': 'image/png', 'X-Size': '{{query.size}}' },
      template: true,
      responses: [{ when: { query: { raw: '1' } }, base64Body: 'AAEC' }],
    };
    const res = await server.putJson('/api/endpoint/add', record);
    expect(res.status).to.equal(201);
    expect(await res.json()).to.deep.equal({ success: true, statusCode: 200, delay: 0, ...record });
    const image = await server.fetch('/endpoint/logo?size=2');
    expect(image.headers.get('content-type')).to.equal('image/png');
    expect(image.headers.get('x-size')).to.equal('2'); // its headers are still templates
    expect(Buffer.from(await image.arrayBuffer())).to.deep.equal(png);
    const raw = await server.fetch('/endpoint/logo?raw=1');
    expect(raw.headers.get('content-type')).to.equal('image/png');
    expect(Buffer.from(await raw.arrayBuffer())).to.deep.equal(Buffer.from([0, 1, 2]));
    const head = await server.fetch('/endpoint/logo', { method: 'HEAD' });
    expect(head.headers.get('content-length')).to.equal(String(png.length));
    await server.putJson('/api/endpoint/add', { name: 'blob', base64Body: 'AAEC' });
    expect((await server.fetch('/endpoint/blob')).headers.get('content-type')).to.equal('application/octet-stream');
  });

  it('returns the whole record on GET, with its URL on its path, and takes that answer back on PUT', async () => {
    await server.putJson('/api/endpoint/add', full);
    const got = await (await server.fetch('/api/endpoint/user')).json();
    expect(got).to.deep.include({ ...stored, hits: 0, lastCall: null, url: `${server.url}/endpoint/users/:id` });
    const again = await server.putJson('/api/endpoint/user', got);
    expect(again.status).to.equal(200);
    expect(await again.json()).to.deep.equal(stored);
  });

  it('lists the effective path, methods (null for all), template flag and response count', async () => {
    await server.putJson('/api/endpoint/add', full);
    await server.putJson('/api/endpoint/add', { name: 'plain', data: 1 });
    const { endpoints } = await (await server.fetch('/api/endpoints')).json();
    const [plain, user] = endpoints;
    expect(Object.keys(plain)).to.deep.equal([
      ...['name', 'path', 'methods', 'statusCode', 'delay', 'template', 'responses'],
      ...['hits', 'lastCall', 'created', 'updated', 'url'],
    ]);
    expect(plain).to.include({ name: 'plain', path: 'plain', methods: null, template: false, responses: 0 });
    expect(plain.url).to.equal(`${server.url}/endpoint/plain`);
    expect(user).to.deep.include({ path: 'users/:id', methods: ['GET', 'PUT'], template: true, responses: 4 });
    expect(user.delay).to.deep.equal({ min: 100, max: 400 });
    expect(user.url).to.equal(`${server.url}/endpoint/users/:id`);
  });

  it('takes a template field that does not compile when template is off', async () => {
    const res = await server.putJson('/api/endpoint/add', { name: 'raw', data: '{{#if', template: false });
    expect(res.status).to.equal(201);
  });

  it('takes path forms: optional tail, wildcard, a lone slash on each side', async () => {
    for (const [i, path] of ['a/:b?/:c?', 'files/*', '/x/', 'v1.2/~me/_-'].entries()) {
      const res = await server.putJson(`/api/endpoint/p${i}`, { path, data: 1 });
      expect(res.status, path).to.equal(201);
    }
  });
});

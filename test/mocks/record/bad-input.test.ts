import { expect } from 'chai';
import { startMockServer, type TestMockServer } from '../server.js';

const NAME_RULE = 'name must be 1 to 128 characters, each a letter, a digit or one of . _ ~ -';
const STATUS_RULE = 'statusCode must be an integer from 200 to 599';
const DELAY_RULE = 'delay must be a number of milliseconds from 0 to 1000';
const HEADERS_RULE = 'headers must be an object of header names to string values';

type Row = { title: string; body: string; status?: number; message: string; field?: string };

const json = (value: unknown) => JSON.stringify(value);

// Bodies for PUT /api/endpoint/add on a server with --max-delay 1000 and --max-body 4096.
const rows: Row[] = [
  { title: 'malformed JSON', body: '{"name":"a",', message: 'malformed JSON body' },
  { title: 'a JSON array', body: '[1]', message: 'request body must be a JSON object' },
  { title: 'a JSON string', body: '"x"', message: 'request body must be a JSON object' },
  { title: 'JSON null', body: 'null', message: 'request body must be a JSON object' },
  { title: 'only whitespace', body: '  ', message: 'the request has no body; send a JSON object' },
  { title: 'a missing name', body: json({ data: 1 }), message: 'name is required', field: 'name' },
  { title: 'a null name', body: json({ name: null, data: 1 }), message: 'name is required', field: 'name' },
  { title: 'a numeric name', body: json({ name: 5, data: 1 }), message: 'name must be a string', field: 'name' },
  { title: 'an empty name', body: json({ name: '', data: 1 }), message: 'name must not be empty', field: 'name' },
  { title: 'a name with a space', body: json({ name: 'a b', data: 1 }), message: NAME_RULE, field: 'name' },
  { title: 'a name with a slash', body: json({ name: 'a/b', data: 1 }), message: NAME_RULE, field: 'name' },
  { title: 'a name with a non-ASCII letter', body: json({ name: 'café', data: 1 }), message: NAME_RULE, field: 'name' },
  { title: 'a name of 129 characters', body: json({ name: 'a'.repeat(129), data: 1 }), message: NAME_RULE, field: 'name' },
  { title: "the name '.'", body: json({ name: '.', data: 1 }), message: "name must not be '.' or '..'", field: 'name' },
  { title: "the name '..'", body: json({ name: '..', data: 1 }), message: "name must not be '.' or '..'", field: 'name' },
  { title: 'missing data', body: json({ name: 'a' }), message: 'data, body or base64Body is required', field: 'data' },
  { title: 'statusCode 199', body: json({ name: 'a', data: 1, statusCode: 199 }), message: STATUS_RULE, field: 'statusCode' },
  { title: 'statusCode 600', body: json({ name: 'a', data: 1, statusCode: 600 }), message: STATUS_RULE, field: 'statusCode' },
  { title: 'statusCode 200.5', body: json({ name: 'a', data: 1, statusCode: 200.5 }), message: STATUS_RULE, field: 'statusCode' },
  { title: 'statusCode as a string', body: json({ name: 'a', data: 1, statusCode: '200' }), message: STATUS_RULE, field: 'statusCode' },
  { title: 'statusCode null', body: json({ name: 'a', data: 1, statusCode: null }), message: STATUS_RULE, field: 'statusCode' },
  { title: 'a negative delay', body: json({ name: 'a', data: 1, delay: -1 }), message: DELAY_RULE, field: 'delay' },
  { title: 'a delay over --max-delay', body: json({ name: 'a', data: 1, delay: 1000.5 }), message: DELAY_RULE, field: 'delay' },
  {
    title: 'a delay as a string',
    body: json({ name: 'a', data: 1, delay: '5' }),
    message: `${DELAY_RULE}, or { "min": …, "max": … }`,
    field: 'delay',
  },
  { title: 'an infinite delay (1e999)', body: '{"name":"a","data":1,"delay":1e999}', message: DELAY_RULE, field: 'delay' },
  { title: 'headers as an array', body: json({ name: 'a', data: 1, headers: [] }), message: HEADERS_RULE, field: 'headers' },
  { title: 'headers as a string', body: json({ name: 'a', data: 1, headers: 'x' }), message: HEADERS_RULE, field: 'headers' },
  {
    title: 'a header name with a space',
    body: json({ name: 'a', data: 1, headers: { 'a b': '1' } }),
    message: "headers: 'a b' is not a valid header name",
    field: 'headers',
  },
  {
    title: 'a header value that is a number',
    body: json({ name: 'a', data: 1, headers: { 'X-N': 1 } }),
    message: "headers: the value of 'X-N' must be a string",
    field: 'headers',
  },
  {
    title: 'a header value with a newline',
    body: json({ name: 'a', data: 1, headers: { 'X-N': 'a\r\nSet-Cookie: x' } }),
    message: "headers: the value of 'X-N' contains characters not allowed in a header",
    field: 'headers',
  },
  ...['Connection', 'Keep-Alive', 'Transfer-Encoding', 'Upgrade', 'TE', 'Trailer', 'Content-Length'].map((name) => ({
    title: `the header ${name}`,
    body: json({ name: 'a', data: 1, headers: { [name]: 'x' } }),
    message: `headers: '${name}' is set by the server and cannot be given`,
    field: 'headers',
  })),
  // Written out: an object literal's __proto__ would set its prototype, not a key.
  ...['__proto__', '__PROTO__'].map((name) => ({
    title: `a header named ${name}`,
    body: `{"name":"a","data":1,"headers":{"X-A":"1","${name}":"x"}}`,
    message: `headers: '${name}' cannot be used as a header name`,
    field: 'headers',
  })),
  // PUT /api/endpoint/add is the add route (the router ignores case): an endpoint so named could not be replaced.
  ...['add', 'ADD', 'Add'].map((name) => ({
    title: `the reserved name ${name}`,
    body: json({ name, data: 1 }),
    message: `name '${name}' is reserved: PUT /api/endpoint/${name} is the API's route that adds endpoints`,
    field: 'name',
  })),
  {
    title: 'one header given twice in different case',
    body: json({ name: 'a', data: 1, headers: { 'x-a': '1', 'X-A': '2' } }),
    message: "headers: 'X-A' is given twice",
    field: 'headers',
  },
  {
    title: 'a body over --max-body',
    body: json({ name: 'a', data: 'x'.repeat(4096) }),
    status: 413,
    message: 'request body too large (the limit is 4096 bytes)',
  },
];

describe('mock API: bad input is refused with the field named and nothing stored', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer({ config: { maxDelay: 1000, maxBody: 4096 } });
  });
  after(() => server.close());
  afterEach(async () => {
    const { endpoints } = await (await server.fetch('/api/endpoints')).json();
    expect(endpoints, 'nothing stored').to.deep.equal([]);
  });

  for (const row of rows) {
    it(`answers ${row.status ?? 400} to ${row.title}`, async () => {
      const res = await server.putJson('/api/endpoint/add', row.body);
      expect(res.status).to.equal(row.status ?? 400);
      const expected = { success: false, message: row.message, ...(row.field && { field: row.field }) };
      expect(await res.json()).to.deep.equal(expected);
    });
  }

  it('answers 413 to a chunked body that grows over --max-body', async () => {
    const chunks = [json({ name: 'a', data: 'x'.repeat(3000) }).slice(0, -1), `,"pad":"${'y'.repeat(3000)}"}`];
    const body = new ReadableStream({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(new TextEncoder().encode(next));
        else controller.close();
      },
    });
    const res = await server.fetch('/api/endpoint/add', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).to.equal(413);
    expect(await res.json()).to.deep.equal({
      success: false,
      message: 'request body too large (the limit is 4096 bytes)',
    });
  });

  // The original service read any body as JSON (its README used curl -d, which sends a form type).
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
    it(`reads a body of type ${type ?? '(none)'} as JSON`, async () => {
      const res = await server.fetch('/api/endpoint/add', {
        method: 'PUT',
        ...(type && { headers: { 'content-type': type } }),
        body: new TextEncoder().encode(json({ name: 'typed', data: 1 })),
      });
      expect(res.status).to.equal(201);
      expect((await server.fetch('/endpoint/typed')).status).to.equal(200);
      await server.fetch('/api/endpoint/typed', { method: 'DELETE' });
    });
  }

  it('answers 400 to a form body that is not JSON, whatever its type', async () => {
    const res = await server.fetch('/api/endpoint/add', {
      method: 'PUT',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=a&data=1',
    });
    expect(res.status).to.equal(400);
    expect(await res.json()).to.deep.equal({ success: false, message: 'malformed JSON body' });
  });

  it('answers 415 to a body in a charset other than UTF-8', async () => {
    const res = await server.fetch('/api/endpoint/add', {
      method: 'PUT',
      headers: { 'content-type': 'application/json; charset=latin1' },
      body: json({ name: 'a', data: 1 }),
    });
    expect(res.status).to.equal(415);
    expect(await res.json()).to.deep.equal({ success: false, message: 'send the body in UTF-8 (got charset latin1)' });
  });

  it('answers 400 to a request with no body at all', async () => {
    const res = await server.fetch('/api/endpoint/add', { method: 'PUT', headers: { 'content-type': 'application/json' } });
    expect(res.status).to.equal(400);
    expect(await res.json()).to.deep.equal({ success: false, message: 'the request has no body; send a JSON object' });
  });

  it('accepts a +json media type such as application/vnd.api+json', async () => {
    const res = await server.fetch('/api/endpoint/plus', {
      method: 'PUT',
      headers: { 'content-type': 'application/vnd.api+json' },
      body: json({ data: 1 }),
    });
    expect(res.status).to.equal(201);
    await server.fetch('/api/endpoint/plus', { method: 'DELETE' });
  });

  it('answers 400 naming the field to an invalid name in the URL of PUT /api/endpoint/<name>', async () => {
    const res = await server.putJson('/api/endpoint/a%20b', { data: 1 });
    expect(res.status).to.equal(400);
    expect(await res.json()).to.deep.equal({ success: false, message: NAME_RULE, field: 'name' });
  });

  it('answers 400 to the reserved name add reached percent-encoded in the URL of PUT /api/endpoint/<name>', async () => {
    const res = await server.putJson('/api/endpoint/%61dd', { data: 1 });
    expect(res.status).to.equal(400);
    expect(await res.json()).to.deep.equal({
      success: false,
      message: "name 'add' is reserved: PUT /api/endpoint/add is the API's route that adds endpoints",
      field: 'name',
    });
  });

  it('answers 400 when the name in the body differs from the one in the URL', async () => {
    const res = await server.putJson('/api/endpoint/one', { name: 'two', data: 1 });
    expect(res.status).to.equal(400);
    expect(await res.json()).to.deep.equal({
      success: false,
      message: "name in the body ('two') differs from the name in the URL ('one')",
      field: 'name',
    });
  });

  it('answers 400 naming data when it is nested too deeply to serve', async () => {
    const deep = `{"name":"a","data":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    const big = await startMockServer({ config: { maxBody: 1024 * 1024 } });
    try {
      const res = await big.putJson('/api/endpoint/add', deep);
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({ success: false, message: 'data is nested too deeply', field: 'data' });
      expect(big.errors).to.deep.equal([]);
    } finally {
      await big.close();
    }
  });
});

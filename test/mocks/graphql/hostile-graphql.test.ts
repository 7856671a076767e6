import { expect } from 'chai';
import { startMockServer, type TestMockServer } from '../server.js';
import { SDL } from './fixture.js';

const post = (query: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query }),
});

describe('GraphQL endpoints against hostile input', () => {
  let server: TestMockServer;
  before(async () => {
    // A CPU budget no test here reaches on a loaded machine: each is about the limit it names (the budget's test is below).
    server = await startMockServer({ config: { maxRequestCpu: 10_000 } });
    expect((await server.putJson('/api/endpoint/gql', { kind: 'graphql', schema: SDL })).status).to.equal(201);
  });
  after(() => server.close());

  describe('at save: refused with a 400 saying what and where, nothing stored', () => {
    // [title, record fields, field, message]
    const cases: [string, Record<string, unknown>, string, string | RegExp][] = [
      ['a schema that does not parse', { schema: 'type Query {\n  a: String\n  b: [Int\n}' }, 'schema', 'schema: Syntax Error: Expected "]", found "}". (line 4, column 1)'],
      ['an unknown type', { schema: 'type Query { a: Strin }' }, 'schema', 'schema: Unknown type "Strin". Did you mean "String"? (line 1, column 17)'],
      ['no Query type', { schema: 'type User { a: Int }' }, 'schema', 'schema: Query root type must be provided.'],
      ['no schema', {}, 'schema', 'schema is required: the GraphQL schema, in SDL'],
      ['a mocks key naming no field', { schema: SDL, mocks: { 'User.nmae': 'x' } }, 'mocks.User.nmae', "mocks.User.nmae: the schema has no object type field 'User.nmae'"],
      ['a mocks template that does not compile', { schema: SDL, mocks: { 'User.name': '{{#each}}' } }, 'mocks.User.name', /^template error: mocks\.User\.name: Parse error/],
      ['a REST field', { schema: SDL, data: {} }, 'data', "a graphql endpoint does not take 'data': it takes name, kind, path, schema, mocks, responses, statusCode, delay"],
      ['another kind', { kind: 'soap', schema: SDL }, 'kind', 'kind must be one of graphql, websocket, sse (none: REST)'],
      ['a response without errors or data', { schema: SDL, responses: [{ when: { operationName: 'A' } }] }, 'responses[0]', 'responses[0] needs errors or data (or both)'],
      ['errors without a message', { schema: SDL, responses: [{ errors: [{ msg: 'x' }] }] }, 'responses[0].errors[0]', 'responses[0].errors must be a non-empty list of objects, each with a message string'],
      ['a schema over 512 KiB', { schema: `type Query { a: Int }\n#${'x'.repeat(512 * 1024)}` }, 'schema', 'schema: the schema is longer than 524288 characters'],
      ['a schema over 100,000 tokens', { schema: `type Query { ${Array.from({ length: 34_000 }, (_, i) => `f${i}: Int`).join(' ')} }` }, 'schema', /^schema: Syntax Error: Document contains more that 100000 tokens/],
    ];
    for (const [title, fields, field, message] of cases) {
      it(`refuses ${title}`, async () => {
        const kind = Object.hasOwn(fields, 'kind') ? {} : { kind: 'graphql' };
        const res = await server.putJson('/api/endpoint/bad', { ...kind, ...fields });
        expect(res.status).to.equal(400);
        const body = (await res.json()) as { success: boolean; field: string; message: string };
        expect(body.success).to.equal(false);
        expect(body.field).to.equal(field);
        if (typeof message === 'string') expect(body.message).to.equal(message);
        else expect(body.message).to.match(message);
        expect((await server.fetch('/api/endpoint/bad')).status).to.equal(404);
      });
    }
  });

  describe('per request: refused by the limits, quickly', () => {
    const field = 'users { id }';
    // [title, query, message]
    const cases: [string, string, string | RegExp][] = [
      ['a query nested 16 deep', `{ users ${'{ friends '.repeat(15)}{ id }${' }'.repeat(15)} }`, 'the query is nested deeper than 15 fields'],
      ['1000 aliases', `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: ${field}`).join(' ')} }`, 'the query selects more than 1000 fields'],
      ['a fragment spread exponentially', `{ ...A } fragment A on Query { ${'...B '.repeat(40)} } fragment B on Query { ${'...C '.repeat(40)} } fragment C on Query { ${field} }`, 'the query selects more than 1000 fields'],
      ['three introspections', `{ ${'__schema { queryType { name } } '.repeat(3)} }`, 'the query asks for the schema (__schema, __type) more than 2 times'],
      ['lists nested until the answer is too big', `{ users ${'{ friends '.repeat(13)}{ id }${' }'.repeat(13)} }`, 'the answer would hold more than 10000 fields'],
      ['over 10,000 tokens', `{ ${'a '.repeat(10_001)} }`, /^Syntax Error: Document contains more that 10000 tokens/],
    ];
    for (const [title, query, message] of cases) {
      it(`refuses ${title}`, async () => {
        const started = performance.now();
        const res = await server.fetch('/endpoint/gql', post(query));
        const ms = performance.now() - started;
        const body = (await res.json()) as { data?: unknown; errors: { message: string }[] };
        expect(body).to.not.have.property('data');
        expect(body.errors).to.have.length(1);
        if (typeof message === 'string') expect(body.errors[0]!.message).to.equal(message);
        else expect(body.errors[0]!.message).to.match(message);
        expect([200, 400]).to.include(res.status);
        expect(ms).to.be.below(1000);
      });
    }

    it('answers a fragment cycle with the validation error, not a loop', async () => {
      const query = '{ ...A } fragment A on Query { users { ...B } } fragment B on User { friends { ...B } }';
      const body = (await (await server.fetch('/endpoint/gql', post(query))).json()) as { errors: { message: string }[] };
      expect(body.errors.map((e) => e.message)).to.deep.equal(['Cannot spread fragment "B" within itself.']);
    });

    it("bounds the mocks' templates by one output budget for the whole answer, not one per field", async () => {
      const record = { kind: 'graphql', schema: SDL, mocks: { 'User.name': '{{json body}}' } };
      expect((await server.putJson('/api/endpoint/echo', record)).status).to.equal(201);
      // Each name renders the 60 KB body: 32 of them would be 2 MB.
      const query = `{ users { friends { friends { friends { friends { name } } } } } }`;
      const res = await server.fetch('/endpoint/echo', post(`${query} #${'x'.repeat(60_000)}`));
      expect(res.status).to.equal(500);
      const body = (await res.json()) as { errors: { message: string }[] };
      expect(body.errors).to.have.length(1);
      expect(body.errors[0]!.message).to.match(/went over 1048576 characters of output for one request$/);
    });

    it('refuses a body over 64 KiB with a 413', async () => {
      const res = await server.fetch('/endpoint/gql', post(`{ users { id } } #${'x'.repeat(70_000)}`));
      expect(res.status).to.equal(413);
      expect(await res.json()).to.deep.equal({ errors: [{ message: 'the request body is over 64 KiB' }] });
    });

    it('refuses a body that is not a GraphQL request with a 400, and another method with a 405', async () => {
      const bad = await server.fetch('/endpoint/gql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": 1}' });
      expect(bad.status).to.equal(400);
      expect(await bad.json()).to.deep.equal({ errors: [{ message: 'the request has no query' }] });
      const put = await server.fetch('/endpoint/gql', { method: 'PUT' });
      expect(put.status).to.equal(405);
      expect(put.headers.get('allow')).to.equal('GET, POST');
    });
  });

  describe('memory: a schema is charged to --max-store-bytes as it will be built', () => {
    let small: TestMockServer;
    before(async () => {
      small = await startMockServer({ store: { maxStoreBytes: 8 * 1024 * 1024 } });
    });
    after(() => small.close());

    it('refuses a schema whose built form would not fit with a 507, storing nothing, and takes a small one', async () => {
      // 20,000 enum values: some 8.5 MB once built (measured 426 B a value), in 120 KB of SDL.
      const values = Array.from({ length: 20_000 }, (_, i) => `V${i}`).join(' ');
      const big = await small.putJson('/api/endpoint/big', { kind: 'graphql', schema: `type Query { e: E } enum E { ${values} }` });
      expect(big.status).to.equal(507);
      expect(((await big.json()) as { message: string }).message).to.match(/^no room/);
      expect((await small.fetch('/api/endpoint/big')).status).to.equal(404);
      expect((await small.putJson('/api/endpoint/fine', { kind: 'graphql', schema: SDL })).status).to.equal(201);
    });
  });

  describe('CPU: a request over --max-request-cpu', () => {
    let tight: TestMockServer;
    before(async () => {
      tight = await startMockServer({ config: { maxRequestCpu: 1 } });
      expect((await tight.putJson('/api/endpoint/gql', { kind: 'graphql', schema: SDL })).status).to.equal(201);
    });
    after(() => tight.close());

    it('is answered 503 once validated, and the server goes on answering', async () => {
      // 999 fields of one name: the overlap check compares them pairwise, well over a millisecond.
      const res = await tight.fetch('/endpoint/gql', post(`{ ${'users { friends { id } } '.repeat(333)} }`));
      expect(res.status).to.equal(503);
      expect(await res.json()).to.deep.equal({
        errors: [{ message: 'the GraphQL query went over the CPU budget of one request (1 ms, --max-request-cpu)' }],
      });
      expect((await tight.fetch('/api/endpoints')).status).to.equal(200);
    });
  });
});

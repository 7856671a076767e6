import { expect } from 'chai';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';

type Answer = { status: number; body: Record<string, any> };

const ORDER = {
  type: 'object',
  required: ['items'],
  properties: { items: { type: 'array', items: { type: 'object', properties: { qty: { type: 'integer', minimum: 1 } } } } },
};

// `bodySchema` in POST /api/verify: a JSON Schema from anyone who reaches the API, so every bound is attacked here.
describe('request verification: bodySchema', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer();
    await addEndpoint(server, { name: 'order', methods: ['POST'], data: { ok: true } });
    const post = (body: string) => server.fetch('/endpoint/order', { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    await post('{"items":[{"qty":2},{"qty":3}]}');
    await post('{"items":[{"qty":0}]}');
    await post('not json at all');
    await post(`{"code":"${'a'.repeat(30_000)}b"}`);
  });
  after(() => server.close());

  const verify = async (body: unknown): Promise<Answer> => {
    const res = await server.fetch('/api/verify', { method: 'POST', body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it('counts the requests whose JSON body validates against the schema', async () => {
    const { status, body } = await verify({ name: 'order', bodySchema: ORDER, count: 1 });
    expect(status).to.equal(200);
    expect(body.requests[0].body).to.equal('{"items":[{"qty":2},{"qty":3}]}');
  });

  it('names the schema error of a near miss by its path in the body, and a body that is not JSON', async () => {
    const { status, body } = await verify({ name: 'order', bodySchema: ORDER, count: 2 });
    expect(status).to.equal(417);
    const misses = body.nearMisses.map((m: { request: { body?: string }; differences: unknown[] }) => m.differences);
    expect(misses).to.deep.include([{ field: 'body /items/0/qty', expected: 'must be >= 1', actual: '0' }]);
    expect(misses).to.deep.include([{ field: 'body', expected: 'JSON valid against bodySchema', actual: 'not json at all' }]);
    expect(misses).to.deep.include([{ field: 'body', expected: "must have required property 'items'", actual: `{"code":"${'a'.repeat(191)}…` }]);
  });

  it('resolves a recursive $ref to the schema\'s root', async () => {
    // Every value anywhere in the body is a whole number of at least 1, an array or an object of such.
    const numbers = { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'array', items: { $ref: '#' } }, { type: 'object', additionalProperties: { $ref: '#' } }] };
    const { status, body } = await verify({ name: 'order', bodySchema: numbers, count: 1 });
    expect(status).to.equal(200);
    expect(body.requests[0].body).to.equal('{"items":[{"qty":2},{"qty":3}]}');
  });

  it('takes a draft-07 schema when its $schema says so, and formats', async () => {
    const draft07 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required: ['items'] };
    expect((await verify({ name: 'order', bodySchema: draft07 })).body.matched).to.equal(2);
    const email = { type: 'object', properties: { code: { type: 'string', format: 'email' } }, required: ['code'] };
    expect((await verify({ name: 'order', bodySchema: email, count: 0 })).status).to.equal(200);
  });

  it('runs `pattern` on RE2: a backtracking pattern over a 30 KB string answers at once', async () => {
    const catastrophic = { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } }, required: ['code'] };
    const started = performance.now();
    const { status, body } = await verify({ name: 'order', bodySchema: catastrophic, count: 1 });
    const ms = performance.now() - started;
    // JavaScript's own RegExp takes longer than the universe's age over 30,000 a's and a b.
    expect(ms).to.be.below(2000);
    expect(status).to.equal(417);
    expect(body.nearMisses[0].differences[0]).to.include({ field: 'body /code', expected: 'must match pattern "^(a+)+$"' });
  });

  it('does not test patternProperties against the schema\'s own property names with a backtracking RegExp', async () => {
    const schema = { type: 'object', properties: { [`${'a'.repeat(30)}!`]: {} }, patternProperties: { '^(a+)+$': { type: 'string' } } };
    const started = performance.now();
    expect((await verify({ name: 'order', bodySchema: schema })).status).to.equal(200);
    expect(performance.now() - started).to.be.below(2000);
  });

  it('stops a schema whose validation is exponential at the CPU budget: a 503, the server free meanwhile', async () => {
    // 1.4 KiB: each $def an anyOf of two $refs to the next, 2^22 paths for a body that fails at the end.
    const $defs: Record<string, unknown> = { d22: { type: 'string' } };
    for (let i = 0; i < 22; i++) $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    const started = performance.now();
    const { status, body } = await verify({ name: 'order', bodySchema: { $defs, $ref: '#/$defs/d0' } });
    expect(performance.now() - started).to.be.below(3000);
    expect(status).to.equal(503);
    expect(body).to.deep.equal({ success: false, message: 'the verification went over the CPU budget of one request (250 ms, --max-request-cpu)' });
  });

  it('answers a body nested too deep for a recursive schema as a difference, not a 500', async () => {
    await addEndpoint(server, { name: 'deep', methods: ['POST'], data: {} });
    await server.fetch('/endpoint/deep', { method: 'POST', body: `${'['.repeat(30_000)}${']'.repeat(30_000)}` });
    const tree = { $defs: { node: { type: 'array', items: { $ref: '#/$defs/node' } } }, $ref: '#/$defs/node' };
    const { status, body } = await verify({ name: 'deep', bodySchema: tree });
    expect(status).to.equal(417);
    expect(body.nearMisses[0].differences[0]).to.include({ field: 'body', expected: 'a body nested shallowly enough to validate' });
    // Failing 15 arrays in, the value left there is too deep for JSON.stringify to show.
    let arrays: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 15; i++) arrays = { items: arrays };
    const shallow = await verify({ name: 'deep', bodySchema: arrays });
    expect(shallow.body.nearMisses[0].differences).to.deep.equal([
      { field: `body ${'/0'.repeat(15)}`, expected: 'must be string', actual: '(nested too deep to show)' },
    ]);
    expect(server.errors).to.deep.equal([]);
  });

  it('keeps draft-07 $ref and definitions working with the budget checks put in', async () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: { line: { type: 'object', properties: { qty: { type: 'integer', minimum: 1 } } } },
      type: 'object',
      properties: { items: { type: 'array', items: { $ref: '#/definitions/line' } } },
      required: ['items'],
    };
    const { status, body } = await verify({ name: 'order', bodySchema: schema, count: 2 });
    expect(status).to.equal(417);
    expect(body.matched).to.equal(1);
    const misses = body.nearMisses.map((m: { differences: unknown[] }) => m.differences);
    expect(misses).to.deep.include([{ field: 'body /items/0/qty', expected: 'must be >= 1', actual: '0' }]);
    expect(body.expected.bodySchema, 'the echo is the schema as sent').to.deep.equal(schema);
  });

  it('refuses a bad schema with a 400 carrying ajv\'s message', async () => {
    const cases: [unknown, RegExp][] = [
      [{ type: 'nope' }, /^bodySchema is not a valid JSON Schema: bodySchema\/type must be equal to one of the allowed values/],
      [{ tpye: 'object' }, /^bodySchema: strict mode: unknown keyword: "tpye"$/],
      [{ type: 'string', format: 'colour' }, /unknown format "colour"/],
      [{ $schema: 'https://example.com/my-meta' }, /no schema with key or ref "https:\/\/example.com\/my-meta"/],
      [{ type: 'string', pattern: '(?=a)' }, /^bodySchema pattern "\(\?=a\)" is not a pattern RE2 takes/],
      [{ type: 'string', pattern: 'x'.repeat(257) }, /is longer than 256 characters$/],
      [{ type: 'string', pattern: '[^\\n]{1000}' }, /compiles to over 1000 instructions$/],
      ['{"type":"object"}', /^bodySchema must be a JSON Schema object$/],
      [true, /^bodySchema must be a JSON Schema object$/],
    ];
    for (const [schema, message] of cases) {
      const { status, body } = await verify({ bodySchema: schema });
      expect(status, JSON.stringify(schema)).to.equal(400);
      expect(body).to.include({ success: false, field: 'bodySchema' });
      expect(body.message).to.match(message);
    }
  });

  it('refuses a $ref to a remote schema without fetching it', async () => {
    let fetched = false;
    const bait = await startMockServer();
    try {
      await addEndpoint(bait, { name: 'schema', data: { type: 'object' } });
      const { status, body } = await verify({ bodySchema: { $ref: `${bait.url}/endpoint/schema` } });
      fetched = (await bait.store.get('schema')!.stats.hits) > 0;
      expect(status).to.equal(400);
      expect(body.message).to.equal(
        `bodySchema: can't resolve reference ${bait.url}/endpoint/schema from id # (a $ref is resolved inside the schema only, never fetched)`,
      );
    } finally {
      await bait.close();
    }
    expect(fetched).to.equal(false);
  });

  it('refuses a schema over 8 KiB or over 16 levels deep with a 400 naming the limit', async () => {
    const big = { type: 'object', properties: Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`field${i}`, { type: 'string' }])) };
    expect((await verify({ bodySchema: big })).body).to.include({ message: 'bodySchema is longer than 8192 characters of JSON', field: 'bodySchema' });
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 16; i++) deep = { items: deep };
    const { status, body } = await verify({ bodySchema: deep });
    expect(status).to.equal(400);
    expect(body).to.include({ message: 'bodySchema is nested deeper than 16 levels', field: 'bodySchema' });
    // 15 levels of `items` and the leaf: 16, the most there may be.
    expect((await verify({ name: 'order', bodySchema: (deep as { items: object }).items })).status).to.equal(200);
  });

  it('is not taken in GET /api/requests: a schema is too long for a query string', async () => {
    const res = await server.fetch(`/api/requests?bodySchema=${encodeURIComponent('{"type":"object"}')}`);
    expect(res.status).to.equal(400);
    expect(await res.json()).to.include({ message: 'bodySchema is too long for a query string: POST it to /api/verify', field: 'bodySchema' });
  });
});

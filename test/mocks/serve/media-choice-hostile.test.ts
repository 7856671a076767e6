import { expect } from 'chai';
import { startMockServer, type TestMockServer } from '../server.js';

function nestedLists(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string', minLength: 50 };
  for (let i = 0; i < depth; i++) schema = { type: 'array', minItems: 3, items: schema };
  return schema;
}

describe('Media types and named examples against hostile records and requests', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer();
  });
  after(() => server.close());

  it('draws a bounded sample from a schema of lists nested 30 deep, quickly', async () => {
    const put = await server.putJson('/api/endpoint/add', { name: 'deep', data: [], content: { 'application/json': { schema: nestedLists(30) } } });
    expect(put.status, await put.clone().text()).to.equal(201);
    const started = performance.now();
    const res = await server.fetch('/endpoint/deep', { headers: { prefer: 'dynamic=true' } });
    expect(res.status).to.equal(200);
    expect((await res.text()).length).to.be.below(200_000);
    expect(performance.now() - started).to.be.below(3000);
  });

  it('reads at most 64 ranges of an Accept header of 1,500', async () => {
    await server.putJson('/api/endpoint/add', { name: 'typed', data: 1, content: { 'application/xml': { body: '<a/>' } } });
    const accept = `${Array.from({ length: 1500 }, (_, i) => `x/y${i}`).join(',')}, application/xml`;
    const res = await server.fetch('/endpoint/typed', { headers: { accept } });
    expect(res.status).to.equal(406);
    const xml = await server.fetch('/endpoint/typed', { headers: { accept: 'application/xml' } });
    expect(await xml.text()).to.equal('<a/>');
  });

  const refused = [
    { content: [], field: 'content', message: 'content must be an object' },
    { content: { xml: {} }, field: 'content', message: "content: 'xml' is not a media type such as application/xml" },
    { content: { 'text/plain': { body: 1 } }, field: 'content.text/plain.body', message: 'content.text/plain.body must be a string' },
    { content: { 'text/plain': { data: 1, body: 'a' } }, field: 'content.text/plain', message: 'content.text/plain: give data or body, not both' },
    { content: { 'text/plain': { examples: { 'a b': { body: 'x' } } } }, field: 'content.text/plain.examples', message: "content.text/plain.examples: 'a b' is not a name of 1 to 128 printable characters" },
    { content: { 'text/plain': { schema: { enum: ['x'.repeat(40_000)] } } }, field: 'content.text/plain.schema', message: 'content.text/plain.schema is longer than 32768 characters of JSON' },
    { content: { 'text/plain': { nope: 1 } }, field: 'content.text/plain.nope', message: "unknown field 'content.text/plain.nope'; content.text/plain takes data, body, examples, schema" },
  ];
  for (const { content, field, message } of refused) {
    it(`refuses a record whose ${field} is malformed with a 400 naming it`, async () => {
      const res = await server.putJson('/api/endpoint/add', { name: 'bad', data: 1, content });
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({ success: false, message, field });
    });
  }
});

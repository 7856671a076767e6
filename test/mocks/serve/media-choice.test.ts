import { expect } from 'chai';
import { startMockServer, type TestMockServer } from '../server.js';
import { importFixture } from '../sources/import-fixture.js';

describe('Accept, Prefer: example= and dynamic=, and default statuses, on OpenAPI documents', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer();
    for (const file of ['swagger-petstore-3.0.yaml', 'library-3.1.yaml']) await importFixture(server, file);
  });
  after(() => server.close());

  it('answers the documented XML when Accept prefers it, and JSON otherwise', async () => {
    const xml = await server.fetch('/endpoint/pet/findByStatus', { headers: { accept: 'application/xml' } });
    expect(xml.status).to.equal(200);
    expect(xml.headers.get('content-type')).to.equal('application/xml');
    expect(await xml.text()).to.match(/^<\?xml|^</);
    const json = await server.fetch('/endpoint/pet/findByStatus', { headers: { accept: 'application/xml;q=0.5, application/json' } });
    expect(json.headers.get('content-type')).to.match(/^application\/json/);
    expect(await json.json()).to.be.an('array');
    expect((await server.fetch('/endpoint/pet/findByStatus', { headers: { accept: '*/*' } })).headers.get('content-type')).to.match(/^application\/json/);
  });

  it('answers 406 naming the documented types when Accept allows none of them', async () => {
    const res = await server.fetch('/endpoint/pet/findByStatus', { headers: { accept: 'text/csv' } });
    expect(res.status).to.equal(406);
    expect(await res.json()).to.deep.equal({
      success: false,
      message: 'no media type here is acceptable (Accept: text/csv); this answer has application/json, application/xml',
      field: 'accept',
      types: ['application/json', 'application/xml'],
    });
    const { requests } = await (await server.fetch('/api/endpoint/findPetsByStatus/requests')).json();
    expect(requests[0]).to.include({ status: 406 });
  });

  it('answers a named example with Prefer: example=NAME, and 422 naming those there are for an unknown one', async () => {
    const empty = await server.fetch('/endpoint/books', { headers: { prefer: 'example=empty' } });
    expect(await empty.json()).to.deep.equal([]);
    const two = await server.fetch('/endpoint/books', { headers: { prefer: 'example="two"' } });
    expect((await two.json()).map((b: { title: string }) => b.title)).to.deep.equal(['Dune', 'Emma']);
    const none = await server.fetch('/endpoint/books', { headers: { prefer: 'example=three' } });
    expect(none.status).to.equal(422);
    expect((await none.json()).message).to.equal("no example named 'three' for application/json here; its examples are two, empty");
  });

  it('answers a fresh sample valid for the schema per request with Prefer: dynamic=true', async () => {
    const bodies = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const res = await server.fetch('/endpoint/store/order/1', { headers: { prefer: 'dynamic=true' } });
      expect(res.status).to.equal(200);
      const order = await res.json();
      expect(order.id).to.be.a('number');
      expect(['placed', 'approved', 'delivered']).to.include(order.status);
      expect(new Date(order.shipDate).toString()).to.not.equal('Invalid Date');
      bodies.add(JSON.stringify(order));
    }
    expect(bodies.size).to.be.greaterThan(1);
  });

  it("reaches with Prefer: code=N a status only the operation's default documents", async () => {
    const res = await server.fetch('/endpoint/books', { headers: { prefer: 'code=503' } });
    expect(res.status).to.equal(503);
    expect(await res.json()).to.have.keys('title', 'status');
    expect((await server.fetch('/endpoint/books', { headers: { prefer: 'code=204' } })).status).to.equal(422);
  });
});

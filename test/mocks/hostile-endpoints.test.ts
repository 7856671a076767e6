import { expect } from 'chai';
import { addEndpoint, startMockServer, type TestMockServer } from './server.js';

// The mock API has no key: anyone who reaches the port may create endpoints, each with its own log.
describe('hostile: the number of endpoints is capped (--max-endpoints)', () => {
  let server: TestMockServer;
  beforeEach(async () => {
    server = await startMockServer({ store: { maxEndpoints: 3 } });
    for (const name of ['a', 'b', 'c']) await addEndpoint(server, { name, data: name });
  });
  afterEach(() => server.close());

  const message = 'no room for another endpoint: the server holds at most 3 (--max-endpoints); delete one first';
  const full = { success: false, message };

  it('answers 507 to one endpoint more and stores nothing', async () => {
    const res = await server.putJson('/api/endpoint/add', { name: 'd', data: 'd' });
    expect(res.status).to.equal(507);
    expect(await res.json()).to.deep.equal(full);
    expect((await server.fetch('/api/endpoint/d')).status).to.equal(404);
    expect((await server.fetch('/endpoint/d')).status).to.equal(404);
  });

  it('refuses a create by PUT /api/endpoint/<name> the same way', async () => {
    const res = await server.putJson('/api/endpoint/d', { data: 'd' });
    expect(res.status).to.equal(507);
    expect(await res.json()).to.deep.equal(full);
  });

  it('still replaces an endpoint that exists', async () => {
    const res = await server.putJson('/api/endpoint/a', { data: 'new' });
    expect(res.status).to.equal(200);
    expect(await (await server.fetch('/endpoint/a')).json()).to.equal('new');
  });

  it('makes room again once an endpoint is deleted', async () => {
    expect((await server.fetch('/api/endpoint/a', { method: 'DELETE' })).status).to.equal(200);
    expect((await server.putJson('/api/endpoint/add', { name: 'd', data: 'd' })).status).to.equal(201);
  });

  it('counts creates under way, so a burst of them cannot pass the cap together', async () => {
    await server.fetch('/api/endpoint/c', { method: 'DELETE' });
    const names = ['p', 'q', 'r', 's', 't', 'u'];
    const statuses = await Promise.all(
      names.map(async (name) => (await server.putJson('/api/endpoint/add', { name, data: 1 })).status),
    );
    expect(statuses.filter((status) => status === 201)).to.have.length(1);
    expect(statuses.filter((status) => status === 507)).to.have.length(5);
    expect(server.store.list()).to.have.length(3);
  });
});

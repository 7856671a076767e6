import { expect } from 'chai';
import { startDbServer, type DbServer } from './plural-db.js';

// json-server 0.17.4's `__tests__/server/singular.js`, restated: one object, `user`.
describe("collections: json-server 0.17's singular router tests", () => {
  const user = { name: 'foo', email: 'foo@example.com' };
  let running: DbServer;
  beforeEach(async () => {
    running = await startDbServer(JSON.stringify({ user }));
  });
  afterEach(() => running.close());
  const send = (method: string, body?: unknown) =>
    running.server.fetch('/endpoint/user', {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('GET /user answers the resource', async () => {
    const res = await send('GET');
    expect([res.status, await res.json()]).to.deep.equal([200, user]);
  });

  it('POST /user replaces it: 201, the body, and Location naming it', async () => {
    const res = await send('POST', { name: 'bar' });
    expect([res.status, await res.json()]).to.deep.equal([201, { name: 'bar' }]);
    expect(res.headers.get('location')).to.equal('/endpoint/user');
    expect(res.headers.get('access-control-expose-headers')).to.include('Location');
    expect(await (await send('GET')).json()).to.deep.equal({ name: 'bar' });
  });

  it('PUT /user replaces it: 200 and the body', async () => {
    const res = await send('PUT', { name: 'bar' });
    expect([res.status, await res.json()]).to.deep.equal([200, { name: 'bar' }]);
  });

  it('PATCH /user merges: 200 and the merged resource', async () => {
    const res = await send('PATCH', { name: 'bar' });
    expect([res.status, await res.json()]).to.deep.equal([200, { name: 'bar', email: 'foo@example.com' }]);
  });
});

import { expect } from 'chai';
import { addEndpoint, startMockServer, type TestMockServer } from './server.js';

describe('mock API', () => {
  let server: TestMockServer;
  beforeEach(async () => {
    server = await startMockServer();
  });
  afterEach(() => server.close());

  describe('PUT /api/endpoint/add', () => {
    it('answers 201 with exactly what was stored, statusCode 200 and delay 0 when not given', async () => {
      const res = await server.putJson('/api/endpoint/add', { name: 'users', data: { id: 1, tags: ['a'] } });
      expect(res.status).to.equal(201);
      expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
      expect(await res.json()).to.deep.equal({
        success: true,
        name: 'users',
        data: { id: 1, tags: ['a'] },
        statusCode: 200,
        delay: 0,
      });
    });

    it('stores statusCode, a fractional delay and headers when given', async () => {
      const record = { name: 'slow', data: [1, 2], statusCode: 503, delay: 12.5, headers: { 'Retry-After': '3' } };
      const res = await server.putJson('/api/endpoint/add', record);
      expect(res.status).to.equal(201);
      expect(await res.json()).to.deep.equal({ success: true, ...record });
    });

    it('accepts any JSON value as data, null included', async () => {
      for (const [i, data] of [null, 0, 'text', false, [], {}].entries()) {
        const res = await server.putJson('/api/endpoint/add', { name: `v${i}`, data });
        expect(await res.json()).to.deep.include({ data });
      }
    });

    it('answers 409 for a name that exists and leaves the stored endpoint untouched', async () => {
      await addEndpoint(server, { name: 'x', data: { first: true } });
      const res = await server.putJson('/api/endpoint/add', { name: 'x', data: { second: true }, statusCode: 500 });
      expect(res.status).to.equal(409);
      expect(await res.json()).to.deep.equal({
        success: false,
        message: "an endpoint named 'x' already exists",
        field: 'name',
      });
      const served = await server.fetch('/endpoint/x');
      expect(served.status).to.equal(200);
      expect(await served.json()).to.deep.equal({ first: true });
    });

    it('refuses a field it does not know, naming it, and stores nothing', async () => {
      const res = await server.putJson('/api/endpoint/add', { name: 'extra', data: 1, comment: 'for the login test' });
      expect(res.status).to.equal(400);
      const body = await res.json();
      expect(body).to.include({ success: false, field: 'comment' });
      expect(body.message).to.match(/^unknown field 'comment'; the record takes name, path, methods/);
      expect((await server.fetch('/api/endpoint/extra')).status).to.equal(404);
    });

    it('answers 500 without details and keeps nothing when the data file cannot be written', async () => {
      await server.store.close();
      const res = await server.putJson('/api/endpoint/add', { name: 'lost', data: 1 });
      expect(res.status).to.equal(500);
      expect(await res.json()).to.deep.equal({ success: false, message: 'internal server error' });
      expect(server.errors).to.have.length(1);
      expect((await server.fetch('/endpoint/lost')).status).to.equal(404);
    });

    it('creates one endpoint when the same name is added ten times at once', async () => {
      const statuses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          server.putJson('/api/endpoint/add', { name: 'race', data: i }).then((r) => r.status),
        ),
      );
      expect(statuses.filter((s) => s === 201)).to.have.length(1);
      expect(statuses.filter((s) => s === 409)).to.have.length(9);
    });
  });

  describe('PUT /api/endpoint/<name>', () => {
    it('creates an endpoint that does not exist with 201', async () => {
      const res = await server.putJson('/api/endpoint/fresh', { data: { a: 1 }, delay: 5 });
      expect(res.status).to.equal(201);
      expect(await res.json()).to.deep.equal({ success: true, name: 'fresh', data: { a: 1 }, statusCode: 200, delay: 5 });
    });

    it('replaces an existing endpoint with 200 and serves the new data at once', async () => {
      await addEndpoint(server, { name: 'r', data: 'old', statusCode: 201, headers: { 'X-Old': '1' } });
      const res = await server.putJson('/api/endpoint/r', { name: 'r', data: 'new' });
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ success: true, name: 'r', data: 'new', statusCode: 200, delay: 0 });
      const served = await server.fetch('/endpoint/r');
      expect(served.status).to.equal(200);
      expect(served.headers.get('x-old')).to.equal(null);
      expect(await served.json()).to.equal('new');
    });

    it('gives the same result when a setup script runs twice', async () => {
      const body = { data: { v: 1 }, statusCode: 202 };
      expect((await server.putJson('/api/endpoint/setup', body)).status).to.equal(201);
      expect((await server.putJson('/api/endpoint/setup', body)).status).to.equal(200);
      expect((await server.fetch('/endpoint/setup')).status).to.equal(202);
    });
  });

  describe('DELETE /api/endpoint/<name>', () => {
    it('removes the endpoint, after which it is served as 404', async () => {
      await addEndpoint(server, { name: 'gone', data: 1 });
      const res = await server.fetch('/api/endpoint/gone', { method: 'DELETE' });
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ success: true, name: 'gone' });
      const served = await server.fetch('/endpoint/gone');
      expect(served.status).to.equal(404);
      expect(await served.json()).to.deep.equal({ success: false, message: "no endpoint named 'gone'" });
    });

    it('lets a deleted name be added again', async () => {
      await addEndpoint(server, { name: 'again', data: 1 });
      await server.fetch('/api/endpoint/again', { method: 'DELETE' });
      expect((await server.putJson('/api/endpoint/add', { name: 'again', data: 2 })).status).to.equal(201);
    });
  });

  describe('reading endpoints', () => {
    it('lists every endpoint with name, statusCode, delay, hits, times, last call and URL, sorted by name', async () => {
      await addEndpoint(server, { name: 'b', data: 1, statusCode: 404, delay: 3 });
      await addEndpoint(server, { name: 'a', data: 2 });
      await server.fetch('/endpoint/b');
      await server.fetch('/endpoint/b');
      const body = await (await server.fetch('/api/endpoints')).json();
      expect(body.success).to.equal(true);
      expect(body.endpoints.map((e: { name: string }) => e.name)).to.deep.equal(['a', 'b']);
      const b = body.endpoints[1];
      expect(b).to.include({ name: 'b', statusCode: 404, delay: 3, hits: 2, url: `${server.url}/endpoint/b` });
      expect(Date.parse(b.updated)).to.be.closeTo(Date.now(), 10_000);
      expect(Date.parse(b.lastCall)).to.be.closeTo(Date.now(), 10_000);
      expect(body.endpoints[0].lastCall).to.equal(null);
      expect(b).to.not.have.property('data');
    });

    it('lists nothing on a fresh data file', async () => {
      expect(await (await server.fetch('/api/endpoints')).json()).to.deep.equal({ success: true, endpoints: [] });
    });

    it('returns one record with its data, hits and URL', async () => {
      await addEndpoint(server, { name: 'one', data: { k: 'v' }, statusCode: 418 });
      await server.fetch('/endpoint/one');
      const body = await (await server.fetch('/api/endpoint/one')).json();
      expect(body).to.deep.include({
        success: true,
        name: 'one',
        data: { k: 'v' },
        statusCode: 418,
        delay: 0,
        hits: 1,
        url: `${server.url}/endpoint/one`,
      });
      expect(body.lastCall).to.equal((await (await server.fetch('/api/endpoint/one/requests')).json()).requests[0].time);
      expect(body.created).to.equal(body.updated);
    });

    for (const [method, path] of [
      ['GET', '/api/endpoint/nope'],
      ['DELETE', '/api/endpoint/nope'],
      ['GET', '/api/endpoint/nope/requests'],
      ['GET', '/endpoint/nope'],
      ['POST', '/endpoint/nope'],
    ]) {
      it(`answers ${method} ${path} with 404 naming the endpoint`, async () => {
        const res = await server.fetch(path, { method });
        expect(res.status).to.equal(404);
        expect(await res.json()).to.deep.equal({ success: false, message: "no endpoint named 'nope'" });
      });
    }

    it('answers an unknown route with a 404 in the same error shape', async () => {
      const res = await server.fetch('/api/nothing');
      expect(res.status).to.equal(404);
      expect(await res.json()).to.deep.equal({ success: false, message: 'no route for GET /api/nothing' });
    });

    it('answers a method the API route does not take with 405', async () => {
      const res = await server.fetch('/api/endpoints', { method: 'POST' });
      expect(res.status).to.equal(405);
      expect((await res.json()).success).to.equal(false);
    });
  });
});

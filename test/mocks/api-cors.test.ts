import { expect } from 'chai';
import { startMockServer, type TestMockServer } from './server.js';

const ORIGIN = 'http://localhost:3000';
const preflight = (method: string) => ({
  method: 'OPTIONS',
  headers: {
    origin: ORIGIN,
    'access-control-request-method': method,
    'access-control-request-headers': 'content-type',
    'access-control-request-private-network': 'true',
  },
});

describe('mock API: CORS on the management API', () => {
  describe('on (the default)', () => {
    let server: TestMockServer;
    before(async () => {
      server = await startMockServer();
    });
    after(() => server.close());

    for (const [method, path] of [
      ['PUT', '/api/endpoint/add'],
      ['PUT', '/api/endpoint/x'],
      ['DELETE', '/api/endpoint/x'],
      ['GET', '/api/endpoints'],
    ]) {
      it(`answers a preflight for ${method} ${path} with 204, the methods and the headers asked for`, async () => {
        const res = await server.fetch(path!, preflight(method!));
        expect(res.status).to.equal(204);
        expect(res.headers.get('access-control-allow-origin')).to.equal('*');
        expect(res.headers.get('access-control-allow-methods')).to.equal('GET, PUT, POST, DELETE, OPTIONS');
        expect(res.headers.get('access-control-allow-headers')).to.equal('content-type');
        // A page on the public internet may not reach into the user's machine.
        expect(res.headers.get('access-control-allow-private-network')).to.equal(null);
      });
    }

    it('lets a page on another origin add, read and delete an endpoint', async () => {
      const init = { method: 'PUT', headers: { origin: ORIGIN, 'content-type': 'application/json' } };
      const added = await server.fetch('/api/endpoint/add', { ...init, body: JSON.stringify({ name: 'c', data: 1 }) });
      expect(added.status).to.equal(201);
      expect(added.headers.get('access-control-allow-origin')).to.equal('*');
      const read = await server.fetch('/api/endpoint/c', { headers: { origin: ORIGIN } });
      expect(read.headers.get('access-control-allow-origin')).to.equal('*');
      const gone = await server.fetch('/api/endpoint/c', { method: 'DELETE', headers: { origin: ORIGIN } });
      expect(gone.status).to.equal(200);
      expect(gone.headers.get('access-control-allow-origin')).to.equal('*');
    });

    it('sends CORS headers on an error too, so the page can read the message', async () => {
      const res = await server.fetch('/api/endpoint/add', { method: 'PUT', headers: { origin: ORIGIN }, body: '{' });
      expect(res.status).to.equal(400);
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      expect(await res.json()).to.deep.equal({ success: false, message: 'malformed JSON body' });
    });

    it('leaves the page and its files without CORS headers', async () => {
      const res = await server.fetch('/static/', { headers: { origin: ORIGIN } });
      expect(res.headers.get('access-control-allow-origin')).to.equal(null);
    });
  });

  describe('off (--no-cors)', () => {
    let server: TestMockServer;
    before(async () => {
      server = await startMockServer({ config: { cors: false } });
    });
    after(() => server.close());

    it('answers no preflight and sends no CORS headers', async () => {
      const pre = await server.fetch('/api/endpoint/add', preflight('PUT'));
      expect(pre.headers.get('access-control-allow-origin')).to.equal(null);
      expect(pre.headers.get('access-control-allow-methods')).to.equal(null);
      const res = await server.fetch('/api/endpoints', { headers: { origin: ORIGIN } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('access-control-allow-origin')).to.equal(null);
    });
  });
});

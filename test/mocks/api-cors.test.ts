import { expect } from 'chai';
import { request } from 'node:http';
import { addEndpoint, startMockServer, type TestMockServer } from './server.js';

const LOOPBACK = 'http://localhost:3000';
const EVIL = 'https://evil.example';
const preflight = (method: string, origin = LOOPBACK) => ({
  method: 'OPTIONS',
  headers: {
    origin,
    'access-control-request-method': method,
    'access-control-request-headers': 'content-type',
    'access-control-request-private-network': 'true',
  },
});
const refused = (origin: string, hint = `start the server with --cors-origin ${origin} to allow them`) => ({
  success: false,
  message: `pages on ${origin} may not use this API; ${hint}`,
});

/** A request with the Host and headers given as they are (fetch would not let a test name the Host). */
function send(url: string, path: string, method: string, headers: Record<string, string>, body = '') {
  const { hostname, port } = new URL(url);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request({ hostname, port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('mock API: the Origins gate on the management API', () => {
  describe('by default: the mock page and loopback pages', () => {
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
      it(`answers a loopback page's preflight for ${method} ${path} with its origin, the methods and the headers asked for`, async () => {
        const res = await server.fetch(path!, preflight(method!));
        expect(res.status).to.equal(204);
        expect(res.headers.get('access-control-allow-origin')).to.equal(LOOPBACK);
        expect(res.headers.get('vary')).to.include('Origin');
        expect(res.headers.get('access-control-allow-methods')).to.equal('GET, PUT, POST, DELETE, OPTIONS');
        expect(res.headers.get('access-control-allow-headers')).to.equal('content-type');
        // A page on the public internet may not reach into the user's machine.
        expect(res.headers.get('access-control-allow-private-network')).to.equal(null);
      });
    }

    for (const origin of [LOOPBACK, 'http://127.0.0.1:5173', 'http://[::1]:8080', 'https://localhost']) {
      it(`lets a page on ${origin} add, read and delete an endpoint`, async () => {
        const init = { method: 'PUT', headers: { origin, 'content-type': 'application/json' } };
        const added = await server.fetch('/api/endpoint/add', { ...init, body: JSON.stringify({ name: 'c', data: 1 }) });
        expect(added.status).to.equal(201);
        expect(added.headers.get('access-control-allow-origin')).to.equal(origin);
        expect(added.headers.get('vary')).to.include('Origin');
        const read = await server.fetch('/api/endpoint/c', { headers: { origin } });
        expect(read.headers.get('access-control-allow-origin')).to.equal(origin);
        const gone = await server.fetch('/api/endpoint/c', { method: 'DELETE', headers: { origin } });
        expect(gone.status).to.equal(200);
        expect(gone.headers.get('access-control-allow-origin')).to.equal(origin);
      });
    }

    it('sends CORS headers on an error too, so an allowed page can read the message', async () => {
      const res = await server.fetch('/api/endpoint/add', { method: 'PUT', headers: { origin: LOOPBACK }, body: '{' });
      expect(res.status).to.equal(400);
      expect(res.headers.get('access-control-allow-origin')).to.equal(LOOPBACK);
      expect(await res.json()).to.deep.equal({ success: false, message: 'malformed JSON body' });
    });

    it('leaves the page and its files without CORS headers', async () => {
      const res = await server.fetch('/static/', { headers: { origin: LOOPBACK } });
      expect(res.headers.get('access-control-allow-origin')).to.equal(null);
    });

    it('serves requests without Origin (curl, the CLI) as before, without CORS headers', async () => {
      const added = await server.putJson('/api/endpoint/add', { name: 'curl', data: 1 });
      expect(added.status).to.equal(201);
      const list = await server.fetch('/api/endpoints');
      expect(list.status).to.equal(200);
      expect(list.headers.get('access-control-allow-origin')).to.equal(null);
      expect(list.headers.get('vary')).to.include('Origin');
      await server.fetch('/api/endpoint/curl', { method: 'DELETE' });
    });

    describe('a page on another origin', () => {
      beforeEach(async () => {
        for (const { name } of server.store.list().map((e) => e.record)) await server.store.delete(name);
        await addEndpoint(server, { name: 'kept', data: { a: 1 } });
        await addEndpoint(server, { name: 'people', collection: true, data: [{ id: 1 }] });
        await server.fetch('/endpoint/kept');
        await server.fetch('/endpoint/people', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":2}' });
      });

      const record = JSON.stringify({ name: 'planted', data: 1 });
      // Each as a page could send it without a preflight: text/plain (or no type), whatever the route expects.
      for (const [method, path, body] of [
        ['PUT', '/api/endpoint/add', record],
        ['PUT', '/api/endpoint/planted', record],
        ['PUT', '/API/endpoint/add', record],
        ['POST', '/api/endpoints/import', JSON.stringify({ endpoints: [{ name: 'planted', data: 1 }] })],
        ['DELETE', '/api/endpoint/kept', ''],
        ['DELETE', '/api/endpoint/kept/requests', ''],
        ['POST', '/api/endpoint/people/reset', ''],
        ['POST', '/api/endpoint/kept', 'x'],
      ] as const) {
        it(`is refused ${method} ${path} with a 403 before anything is done`, async () => {
          const headers = { origin: EVIL, 'content-type': 'text/plain;charset=UTF-8' };
          const res = await server.fetch(path, { method, headers, body: body || undefined });
          expect(res.status).to.equal(403);
          expect(res.headers.get('access-control-allow-origin')).to.equal(null);
          expect(await res.json()).to.deep.equal(refused(EVIL));
          expect(server.store.list().map((e) => e.record.name).sort()).to.deep.equal(['kept', 'people']);
          expect(server.store.get('kept')!.stats.requests.newestFirst()).to.have.length(1);
          const people = await (await server.fetch('/endpoint/people')).json();
          expect(people).to.deep.equal([{ id: 1 }, { id: 2 }]);
        });
      }

      it('is refused a form POST, a sandboxed frame (Origin: null) too', async () => {
        const form = { 'content-type': 'application/x-www-form-urlencoded' };
        const res = await server.fetch('/api/endpoint/add', { method: 'PUT', headers: { origin: 'null', ...form }, body: 'a=1' });
        expect(res.status).to.equal(403);
        expect(await res.json()).to.deep.equal({
          success: false,
          message: "pages with an opaque origin (null: sandboxed frames, files) may not use this API; only --cors-origin '*' lets such pages in",
        });
        expect(server.store.get('planted')).to.equal(undefined);
      });

      for (const path of ['/api/endpoints', '/api/endpoint/kept', '/api/endpoint/kept/requests', '/api/sources']) {
        it(`gets GET ${path} without CORS headers, so it cannot read it`, async () => {
          const res = await server.fetch(path, { headers: { origin: EVIL } });
          expect(res.status).to.equal(200);
          expect(res.headers.get('access-control-allow-origin')).to.equal(null);
          expect(res.headers.get('vary')).to.include('Origin');
        });
      }

      it('gets the live request log without CORS headers', async () => {
        const controller = new AbortController();
        const res = await server.fetch('/api/endpoint/kept/events', { headers: { origin: EVIL }, signal: controller.signal });
        expect(res.status).to.equal(200);
        expect(res.headers.get('access-control-allow-origin')).to.equal(null);
        controller.abort();
      });

      it('gets its preflights answered without CORS headers, so the browser sends nothing', async () => {
        for (const method of ['PUT', 'DELETE', 'POST', 'GET']) {
          const res = await server.fetch('/api/endpoint/add', preflight(method, EVIL));
          expect(res.status).to.equal(204);
          expect(res.headers.get('access-control-allow-origin')).to.equal(null);
          expect(res.headers.get('access-control-allow-methods')).to.equal(null);
        }
      });

      it('is refused when only its port differs from a loopback page or the server', async () => {
        const { port } = new URL(server.url);
        for (const origin of [`http://127.0.0.2:${port}`, 'http://localhost.evil.example', 'http://0.0.0.0:3000']) {
          const res = await server.fetch('/api/endpoint/add', { method: 'PUT', headers: { origin }, body: record });
          expect(res.status, origin).to.equal(403);
        }
      });

      it('still calls /endpoint/* with CORS headers, as apps do', async () => {
        const res = await server.fetch('/endpoint/kept', { headers: { origin: EVIL } });
        expect(res.status).to.equal(200);
        expect(res.headers.get('access-control-allow-origin')).to.equal('*');
        const posted = await server.fetch('/endpoint/people', { method: 'POST', headers: { origin: EVIL, 'content-type': 'text/plain' }, body: '{"id":3}' });
        expect(posted.status).to.equal(201);
      });
    });

    describe('the mock page on a name other than localhost', () => {
      const record = JSON.stringify({ name: 'own', data: 1 });
      afterEach(() => server.store.delete('own'));

      it('is its own origin: scheme and Host', async () => {
        const host = 'mocks.example:8080';
        const res = await send(server.url, '/api/endpoint/add', 'PUT', { host, origin: `http://${host}` }, record);
        expect(res.status, res.body).to.equal(201);
        expect(res.headers['access-control-allow-origin']).to.equal(`http://${host}`);
      });

      it('is its own origin over https when a TLS proxy in front speaks http to us', async () => {
        const res = await send(server.url, '/api/endpoint/add', 'PUT', { host: 'mocks.example', origin: 'https://mocks.example' }, record);
        expect(res.status, res.body).to.equal(201);
      });

      it('is another page on another port, or over http when we are https', async () => {
        const other = await send(server.url, '/api/endpoint/add', 'PUT', { host: 'mocks.example:8080', origin: 'http://mocks.example:8081' }, record);
        expect(other.status).to.equal(403);
        const forwarded = { host: 'mocks.example', origin: 'http://mocks.example', 'x-forwarded-proto': 'https' };
        // Without --trust-proxy X-Forwarded-Proto means nothing: this is http://mocks.example, its own origin.
        expect((await send(server.url, '/api/endpoint/add', 'PUT', forwarded, record)).status).to.equal(201);
      });
    });
  });

  describe('behind a proxy (--trust-proxy)', () => {
    let server: TestMockServer;
    before(async () => {
      server = await startMockServer({ config: { trustProxy: true } });
    });
    after(() => server.close());

    it('takes its own origin from X-Forwarded-Proto and -Host', async () => {
      const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'mocks.example' };
      const own = await send(server.url, '/api/endpoints', 'GET', { ...headers, origin: 'https://mocks.example' });
      expect(own.headers['access-control-allow-origin']).to.equal('https://mocks.example');
      const body = JSON.stringify({ name: 'p', data: 1 });
      const plain = await send(server.url, '/api/endpoint/add', 'PUT', { ...headers, origin: 'http://mocks.example' }, body);
      expect(plain.status).to.equal(403);
    });
  });

  describe('with --cors-origin', () => {
    let server: TestMockServer;
    before(async () => {
      server = await startMockServer({ config: { corsOrigins: ['https://app.example'] } });
    });
    after(() => server.close());

    it('lets that page in besides loopback ones, and no other', async () => {
      const body = JSON.stringify({ name: 'app', data: 1 });
      const app = await server.fetch('/api/endpoint/add', { method: 'PUT', headers: { origin: 'https://app.example' }, body });
      expect(app.status).to.equal(201);
      expect(app.headers.get('access-control-allow-origin')).to.equal('https://app.example');
      const local = await server.fetch('/api/endpoints', { headers: { origin: LOOPBACK } });
      expect(local.headers.get('access-control-allow-origin')).to.equal(LOOPBACK);
      const other = await server.fetch('/api/endpoint/app', { method: 'DELETE', headers: { origin: 'https://app.example.evil' } });
      expect(other.status).to.equal(403);
      expect(server.store.get('app')).to.not.equal(undefined);
    });
  });

  describe("with --cors-origin '*'", () => {
    let server: TestMockServer;
    before(async () => {
      server = await startMockServer({ config: { corsOrigins: ['*'] } });
    });
    after(() => server.close());

    it('is open to every page, as before the gate', async () => {
      const pre = await server.fetch('/api/endpoint/add', preflight('PUT', EVIL));
      expect(pre.headers.get('access-control-allow-origin')).to.equal('*');
      const body = JSON.stringify({ name: 'any', data: 1 });
      const res = await server.fetch('/api/endpoint/add', { method: 'PUT', headers: { origin: 'null' }, body });
      expect(res.status).to.equal(201);
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      const list = await server.fetch('/api/endpoints');
      expect(list.headers.get('access-control-allow-origin')).to.equal('*');
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
      const res = await server.fetch('/api/endpoints', { headers: { origin: LOOPBACK } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('access-control-allow-origin')).to.equal(null);
    });

    it('refuses writes from every page but its own, loopback ones included', async () => {
      const body = JSON.stringify({ name: 'n', data: 1 });
      const res = await server.fetch('/api/endpoint/add', { method: 'PUT', headers: { origin: LOOPBACK }, body });
      expect(res.status).to.equal(403);
      expect(await res.json()).to.deep.equal(refused(LOOPBACK, 'the server runs with --no-cors, which allows its own page only'));
      const own = await server.fetch('/api/endpoint/add', { method: 'PUT', headers: { origin: server.url }, body });
      expect(own.status).to.equal(201);
      expect(own.headers.get('access-control-allow-origin')).to.equal(null);
    });
  });
});

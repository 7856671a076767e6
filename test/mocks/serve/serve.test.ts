import { expect } from 'chai';
import type { TestResponse } from '../../helpers/http.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';

describe('GET /endpoint/<name>', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer();
    await addEndpoint(server, { name: 'users', data: [{ id: 1, name: 'Ada ✓' }] });
    await addEndpoint(server, { name: 'created', data: { ok: true }, statusCode: 201, headers: { 'X-Trace': 't1' } });
    await addEndpoint(server, { name: 'empty', data: { ignored: true }, statusCode: 204 });
    await addEndpoint(server, { name: 'typed', data: {}, headers: { 'Content-Type': 'application/problem+json' } });
  });
  after(() => server.close());

  it('answers the stored data as JSON without a wrapper', async () => {
    const res = await server.fetch('/endpoint/users');
    expect(res.status).to.equal(200);
    expect(await res.text()).to.equal('[{"id":1,"name":"Ada ✓"}]');
  });

  it('sends application/json; charset=utf-8 and the exact byte length', async () => {
    const res = await server.fetch('/endpoint/users');
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(res.headers.get('content-length')).to.equal(String(Buffer.byteLength('[{"id":1,"name":"Ada ✓"}]')));
  });

  it('answers with the stored status code and headers', async () => {
    const res = await server.fetch('/endpoint/created');
    expect(res.status).to.equal(201);
    expect(res.headers.get('x-trace')).to.equal('t1');
    expect(await res.json()).to.deep.equal({ ok: true });
  });

  it('lets a stored Content-Type replace the default one', async () => {
    const res = await server.fetch('/endpoint/typed');
    expect(res.headers.get('content-type')).to.equal('application/problem+json');
  });

  it('sends no body for a stored 204', async () => {
    const res = await server.fetch('/endpoint/empty');
    expect(res.status).to.equal(204);
    expect(await res.text()).to.equal('');
  });

  it('ignores the query string when finding the endpoint', async () => {
    expect(await (await server.fetch('/endpoint/users?page=2&x=%2F')).json()).to.have.length(1);
  });

  it('finds a name sent percent-encoded', async () => {
    expect((await server.fetch('/endpoint/%75sers')).status).to.equal(200);
  });

  it('serves a trailing-slash path through Koa with the same answer', async () => {
    expect(await (await server.fetch('/endpoint/users/')).text()).to.equal('[{"id":1,"name":"Ada ✓"}]');
  });

  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    it(`answers ${method} the same way, so webhooks can be pointed at it`, async () => {
      const res = await server.fetch('/endpoint/created', {
        method,
        headers: { 'content-type': 'application/json' },
        body: '{"event":"ping"}',
      });
      expect(res.status).to.equal(201);
      expect(await res.json()).to.deep.equal({ ok: true });
    });
  }

  it('answers HEAD with the headers and no body', async () => {
    const res = await server.fetch('/endpoint/users', { method: 'HEAD' });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-length')).to.equal(String(Buffer.byteLength('[{"id":1,"name":"Ada ✓"}]')));
    expect(await res.text()).to.equal('');
  });

  it('allows any origin to read it (CORS)', async () => {
    const res = await server.fetch('/endpoint/users', { headers: { origin: 'http://example.test' } });
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
  });

  it('exposes the stored headers to browser scripts, and which endpoint answered', async () => {
    const res = await server.fetch('/endpoint/created', { headers: { origin: 'http://example.test' } });
    expect(res.headers.get('access-control-expose-headers')).to.equal('X-Snippetkit-Answer, X-Trace');
    expect(res.headers.get('x-snippetkit-answer')).to.equal('created');
  });

  it('names the response that answered: the endpoint alone for its own answer, #1 for responses[0]', async () => {
    await addEndpoint(server, {
      name: 'login',
      data: { ok: true },
      responses: [{ when: { method: ['POST'] }, statusCode: 401, data: { ok: false } }],
    });
    const post = await server.fetch('/endpoint/login', { method: 'POST' });
    expect([post.status, post.headers.get('x-snippetkit-answer')]).to.deep.equal([401, 'login #1']);
    const get = await server.fetch('/endpoint/login');
    expect([get.status, get.headers.get('x-snippetkit-answer')]).to.deep.equal([200, 'login']);
    await addEndpoint(server, { name: 'hello', data: { hi: '{{query.who}}' }, template: true });
    expect((await server.fetch('/endpoint/hello?who=x')).headers.get('x-snippetkit-answer')).to.equal('hello');
  });

  it('answers a CORS preflight with 204, every method and the asked headers', async () => {
    const res = await server.fetch('/endpoint/users', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://example.test',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type,x-token',
      },
    });
    expect(res.status).to.equal(204);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    expect(res.headers.get('access-control-allow-methods')).to.equal('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).to.equal('content-type,x-token');
  });

  it('does not count a preflight as a hit', async () => {
    const before = (await (await server.fetch('/api/endpoint/users')).json()).hits;
    await server.fetch('/endpoint/users', { method: 'OPTIONS', headers: { 'access-control-request-method': 'GET' } });
    expect((await (await server.fetch('/api/endpoint/users')).json()).hits).to.equal(before);
  });

  it('sends CORS headers on the 404 for an unknown name', async () => {
    const res = await server.fetch('/endpoint/nobody');
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
  });

  it('counts every request as a hit', async () => {
    const before = (await (await server.fetch('/api/endpoint/created')).json()).hits;
    await server.fetch('/endpoint/created');
    await server.fetch('/endpoint/created', { method: 'POST', body: 'x' });
    expect((await (await server.fetch('/api/endpoint/created')).json()).hits).to.equal(before + 2);
  });
});

describe('/endpoint/<name> with a status that carries no content', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer();
    for (const statusCode of [204, 205, 304]) {
      await addEndpoint(server, { name: `s${statusCode}`, data: { never: 'sent' }, statusCode });
    }
  });
  after(() => server.close());

  // Raw bytes: fetch would hide a body or a length the server should not have sent.
  const cases: [number, string, string | null][] = [
    [204, 'GET', null],
    [204, 'HEAD', null],
    [205, 'GET', '0'],
    [205, 'HEAD', '0'],
    [304, 'GET', null],
    [304, 'HEAD', null],
  ];
  for (const [status, method, length] of cases) {
    it(`answers ${method} of a stored ${status} with no body and Content-Length ${length ?? 'absent'}`, async () => {
      const request = `${method} /endpoint/s${status} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`;
      const answer = await rawRequest(server.url, request);
      expect(answer.status).to.equal(status);
      expect(answer.body).to.equal('');
      expect(/^content-length: (.*)$/im.exec(answer.headers)?.[1] ?? null).to.equal(length);
      expect(answer.headers).not.to.match(/^(content-type|transfer-encoding):/im);
    });
  }
});

describe('/endpoint/<name> with --no-cors', () => {
  it('sends no CORS headers and treats OPTIONS as any other method', async () => {
    const server = await startMockServer({ config: { cors: false } });
    try {
      await addEndpoint(server, { name: 'a', data: 1, statusCode: 202 });
      const get = await server.fetch('/endpoint/a', { headers: { origin: 'http://example.test' } });
      expect(get.headers.get('access-control-allow-origin')).to.equal(null);
      const options = await server.fetch('/endpoint/a', {
        method: 'OPTIONS',
        headers: { origin: 'http://example.test', 'access-control-request-method': 'PUT' },
      });
      expect(options.status).to.equal(202);
      expect(options.headers.get('access-control-allow-methods')).to.equal(null);
    } finally {
      await server.close();
    }
  });
});

describe('the hot path and the Koa route', () => {
  const requests: [string, string, RequestInit?][] = [
    ['GET of a stored endpoint', '/endpoint/a?x=1'],
    ['POST with a body', '/endpoint/a', { method: 'POST', body: '{"n":1}', headers: { 'content-type': 'application/json' } }],
    ['HEAD', '/endpoint/a', { method: 'HEAD' }],
    ['a preflight', '/endpoint/a', { method: 'OPTIONS', headers: { 'access-control-request-method': 'PUT' } }],
    ['GET of an unknown name', '/endpoint/zzz'],
    ['GET of a 204 endpoint', '/endpoint/none'],
  ];

  async function answer(hotPath: boolean, path: string, init?: RequestInit) {
    const server = await startMockServer({ hotPath });
    try {
      await addEndpoint(server, { name: 'a', data: { v: [1, 2] }, statusCode: 203, headers: { 'X-Id': '7' } });
      await addEndpoint(server, { name: 'none', data: null, statusCode: 204 });
      const res: TestResponse = await server.fetch(path, init);
      const headers = Object.fromEntries([...res.headers].filter(([name]) => name !== 'date'));
      const body = await res.text();
      const { hits } = await (await server.fetch('/api/endpoint/a')).json();
      const { requests: log } = await (await server.fetch('/api/endpoint/a/requests')).json();
      const logged = log.map(({ method, url, body: text }: Record<string, string>) => ({ method, url, text }));
      return { status: res.status, headers, body, hits, logged };
    } finally {
      await server.close();
    }
  }

  for (const [title, path, init] of requests) {
    it(`answer ${title} identically: status, headers, body, hits and request log`, async () => {
      expect(await answer(true, path, init)).to.deep.equal(await answer(false, path, init));
    });
  }
});

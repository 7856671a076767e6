import { expect } from 'chai';
import { startBinServer, type TestBinServer } from './helpers/bin-server.js';
import { rawRequest } from './helpers/raw-http.js';
import { startMockServer, type TestMockServer } from './mocks/server.js';

type Server = 'bins' | 'mocks';
type Case = {
  name: string;
  server: Server;
  /** A fetch-able request... */
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** ...or raw bytes, for what fetch would not send (it normalises paths, checks headers). */
  raw?: (host: string) => string | Buffer;
  status: number;
  /** The exact JSON error body, when the server sends one. */
  error?: unknown;
};

const KEY = 'hostile-key';
const AUTH = { Authorization: `token ${KEY}` };
const FORM = { 'content-type': 'application/x-www-form-urlencoded', ...AUTH };
const JSON_H = { 'content-type': 'application/json', ...AUTH };
const MOCK_JSON = { 'content-type': 'application/json' };
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const notFound = { error: 'not found' };
const mockError = (message: string, field?: string) => (field ? { success: false, message, field } : { success: false, message });
const floodHeaders = (host: string) =>
  `GET /status HTTP/1.1\r\nHost: ${host}\r\n${Array.from({ length: 2000 }, (_, i) => `X-Flood-${i}: ${'x'.repeat(40)}`).join('\r\n')}\r\nConnection: close\r\n\r\n`;
const rawGet = (path: string) => (host: string) => `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
const add = (record: Record<string, unknown>) => ({ method: 'PUT', path: '/api/endpoint/add', headers: MOCK_JSON, body: JSON.stringify(record) });

const cases: Case[] = [
  // --- bin server: bodies
  { server: 'bins', name: 'a form body over 1 MB', method: 'POST', path: '/api/save', headers: FORM, body: `html=${'a'.repeat(1_100_000)}`, status: 413, error: { error: 'request body too large (the limit is 1048576 bytes)' } },
  { server: 'bins', name: 'a JSON body over 1 MB', method: 'POST', path: '/api/save', headers: JSON_H, body: JSON.stringify({ html: 'a'.repeat(1_100_000) }), status: 413, error: { error: 'request body too large (the limit is 1048576 bytes)' } },
  { server: 'bins', name: 'a chunked body that grows over 1 MB', raw: (host) => `POST /api/save HTTP/1.1\r\nHost: ${host}\r\nAuthorization: token ${KEY}\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${'100000\r\n' + 'a'.repeat(0x100000) + '\r\n'}100\r\n${'a'.repeat(256)}\r\n0\r\n\r\n`, status: 413, error: { error: 'request body too large (the limit is 1048576 bytes)' } },
  { server: 'bins', name: 'JSON nested 100,000 levels as a panel', method: 'POST', path: '/api/save', headers: JSON_H, body: `{"html":${deep(100_000)}}`, status: 400, error: { error: 'html must be a string', field: 'html' } },
  { server: 'bins', name: 'settings nested 100,000 levels', method: 'POST', path: '/api/save', headers: JSON_H, body: `{"html":"x","settings":{"a":${deep(100_000)}}}`, status: 400, error: { error: 'settings are nested more than 32 levels deep', field: 'settings' } },
  { server: 'bins', name: '10,000 form fields', method: 'POST', path: '/api/save', headers: FORM, body: Array.from({ length: 10_000 }, (_, i) => `f${i}=1`).join('&'), status: 413, error: { error: 'too many form fields (more than 1000)' } },
  { server: 'bins', name: 'invalid UTF-8 bytes', method: 'POST', path: '/api/save', headers: FORM, body: Buffer.concat([Buffer.from('html='), Buffer.from([0xc3, 0x28, 0xa0, 0xa1])]), status: 400, error: { error: 'the request body is not valid UTF-8' } },
  { server: 'bins', name: 'a %-escape of invalid UTF-8', method: 'POST', path: '/api/save', headers: FORM, body: 'html=%C3%28', status: 400, error: { error: 'the form body has a malformed %-escape or is not UTF-8' } },
  { server: 'bins', name: 'a NUL-only save', method: 'POST', path: '/api/save', headers: FORM, body: 'html=%00', status: 200 },
  { server: 'bins', name: 'an XML body', method: 'POST', path: '/api/save', headers: { ...AUTH, 'content-type': 'application/xml' }, body: '<html/>', status: 415, error: { error: 'send the save as application/x-www-form-urlencoded or application/json' } },
  // --- bin server: ids, revisions, paths, keys, headers
  { server: 'bins', name: 'an id with unicode', method: 'POST', path: '/api/%E2%9C%93/save', headers: FORM, body: 'html=x', status: 404, error: notFound },
  { server: 'bins', name: 'an id with an encoded slash', method: 'POST', path: '/api/a%2Fb/save', headers: FORM, body: 'html=x', status: 404, error: notFound },
  { server: 'bins', name: 'an id with dots', method: 'POST', path: '/api/..%2E/save', headers: FORM, body: 'html=x', status: 404, error: notFound },
  { server: 'bins', name: 'an id of 10 KB', method: 'POST', path: `/api/${'b'.repeat(10_240)}/save`, headers: FORM, body: 'html=x', status: 404, error: notFound },
  { server: 'bins', name: 'an id with %00', method: 'GET', path: '/api/hostile%00', status: 404, error: notFound },
  { server: 'bins', name: 'a reserved name', method: 'POST', path: '/api/static/save', headers: FORM, body: 'html=x', status: 404, error: notFound },
  { server: 'bins', name: 'a huge revision', method: 'GET', path: '/api/hostile/99999999999999999999999999', status: 404, error: notFound },
  { server: 'bins', name: 'a revision past the latest', method: 'DELETE', path: '/api/hostile/2', headers: AUTH, status: 404, error: notFound },
  { server: 'bins', name: 'a wrong key', method: 'POST', path: '/api/save', headers: { ...FORM, Authorization: 'token wrong' }, body: 'html=x', status: 403, error: { error: 'The API key you provided is not valid' } },
  { server: 'bins', name: 'a key 10 KB long', method: 'GET', path: `/api/hostile?api_key=${'k'.repeat(10_240)}`, status: 403, error: { error: 'The API key you provided is not valid' } },
  { server: 'bins', name: 'a save with no key', method: 'POST', path: '/api/save', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'html=x', status: 403, error: { error: 'You need to provide a valid API key when using this API' } },
  { server: 'bins', name: 'a delete with no key', method: 'DELETE', path: '/api/hostile/1', status: 403, error: { error: 'You need to provide a valid API key when using this API' } },
  { server: 'bins', name: 'a flood of 2,000 headers', raw: floodHeaders, status: 431 },
  // One /static/ server for both: a path leaving the folder or holding a NUL is no asset (404)
  { server: 'bins', name: 'path traversal under /static', raw: rawGet('/static/..%2f..%2f..%2fetc/passwd'), status: 404 },
  { server: 'bins', name: 'literal ../ under /static', raw: rawGet('/static/../../../etc/passwd'), status: 404 },
  { server: 'bins', name: '%00 in a static path', raw: rawGet('/static/editor.js%00.png'), status: 404 },
  { server: 'bins', name: 'a broken %-escape in a static path', raw: rawGet('/static/editor%E0%A4%A.js'), status: 400 },
  // --- mock server
  { server: 'mocks', name: 'a body over --max-body', ...add({ name: 'big', data: 'x'.repeat(1_100_000) }), status: 413, error: mockError('request body too large (the limit is 1048576 bytes)') },
  { server: 'mocks', name: 'data nested 100,000 levels', method: 'PUT', path: '/api/endpoint/add', headers: MOCK_JSON, body: `{"name":"deep","data":${deep(100_000)}}`, status: 400 },
  { server: 'mocks', name: 'invalid UTF-8 bytes', method: 'PUT', path: '/api/endpoint/add', headers: MOCK_JSON, body: Buffer.concat([Buffer.from('{"name":"u","data":"'), Buffer.from([0xff]), Buffer.from('"}')]), status: 400, error: mockError('the request body is not valid UTF-8') },
  { server: 'mocks', name: 'a name with unicode', ...add({ name: 'naïve', data: 1 }), status: 400 },
  { server: 'mocks', name: 'a name with a slash', ...add({ name: 'a/b', data: 1 }), status: 400 },
  { server: 'mocks', name: 'the name ..', ...add({ name: '..', data: 1 }), status: 400 },
  { server: 'mocks', name: 'a name of 10 KB', ...add({ name: 'n'.repeat(10_240), data: 1 }), status: 400 },
  { server: 'mocks', name: 'statusCode 99', ...add({ name: 's', data: 1, statusCode: 99 }), status: 400 },
  { server: 'mocks', name: 'statusCode 600', ...add({ name: 's', data: 1, statusCode: 600 }), status: 400 },
  { server: 'mocks', name: 'statusCode 200.5', ...add({ name: 's', data: 1, statusCode: 200.5 }), status: 400 },
  { server: 'mocks', name: 'statusCode "200"', ...add({ name: 's', data: 1, statusCode: '200' }), status: 400 },
  { server: 'mocks', name: 'a negative delay', ...add({ name: 'd', data: 1, delay: -1 }), status: 400 },
  { server: 'mocks', name: 'delay 1e999', method: 'PUT', path: '/api/endpoint/add', headers: MOCK_JSON, body: '{"name":"d","data":1,"delay":1e999}', status: 400 },
  { server: 'mocks', name: 'a delay over --max-delay', ...add({ name: 'd', data: 1, delay: 60_001 }), status: 400 },
  { server: 'mocks', name: 'a hop-by-hop response header', ...add({ name: 'h', data: 1, headers: { Connection: 'close' } }), status: 400 },
  { server: 'mocks', name: 'a form body (read as JSON whatever its type)', method: 'PUT', path: '/api/endpoint/add', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=f&data=1', status: 400, error: { success: false, message: 'malformed JSON body' } },
  { server: 'mocks', name: 'an unknown endpoint', method: 'GET', path: '/endpoint/nosuch', status: 404, error: mockError("no endpoint named 'nosuch'") },
  { server: 'mocks', name: 'path traversal under /static', raw: rawGet('/static/..%2f..%2f..%2fetc/passwd'), status: 404 },
  { server: 'mocks', name: 'literal ../ under /static', raw: rawGet('/static/../../../etc/passwd'), status: 404 },
  { server: 'mocks', name: '%00 in a static path', raw: rawGet('/static/page.js%00.png'), status: 404 },
  { server: 'mocks', name: 'a broken %-escape in a static path', raw: rawGet('/static/page%E0%A4%A.js'), status: 400 },
  { server: 'mocks', name: '%00 in an endpoint name', raw: rawGet('/endpoint/seed%00'), status: 404 },
  { server: 'mocks', name: 'a flood of 2,000 headers', raw: floodHeaders, status: 431 },
];

describe('hostile and malformed input', function () {
  this.timeout(30_000);
  let bins: TestBinServer;
  let mocks: TestMockServer;
  const snapshot = async (server: Server) =>
    JSON.stringify(server === 'bins' ? await bins.store.list() : mocks.store.list().map((e) => e.record));

  before(async () => {
    bins = await startBinServer({ ownership: { api_key: KEY } });
    await bins.store.append('hostile', () => ({ html: 'seed', javascript: '', css: '', settings: {} }));
    mocks = await startMockServer();
    await mocks.putJson('/api/endpoint/add', { name: 'seed', data: { ok: true } });
  });
  after(async () => {
    await bins.close();
    await mocks.close();
  });

  for (const c of cases) {
    const changes = c.status === 200;
    it(`${c.server}: ${c.name} → ${c.status}${changes ? '' : ', store unchanged'}`, async () => {
      const server = c.server === 'bins' ? bins : mocks;
      const before = await snapshot(c.server);
      let status: number;
      let text: string;
      if (c.raw) {
        const answer = await rawRequest(server.url, c.raw(new URL(server.url).host));
        status = answer.status;
        text = answer.body;
      } else {
        const res = await server.fetch(c.path!, { method: c.method, headers: c.headers, body: c.body });
        status = res.status;
        text = await res.text();
      }
      expect(status).to.equal(c.status);
      expect(text).not.to.include('root:');
      expect(text).not.to.match(/\n\s+at /); // no stack trace
      if (c.error !== undefined) expect(JSON.parse(text)).to.deep.equal(c.error);
      if (c.server === 'mocks' && c.status >= 400 && c.status < 500 && !c.raw) {
        expect(JSON.parse(text)).to.include({ success: false });
      }
      if (!changes) expect(await snapshot(c.server)).to.equal(before);
      // and the server still answers
      expect((await server.fetch(c.server === 'bins' ? '/status' : '/api/endpoints')).status).to.equal(200);
    });
  }
});

import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import type { ProxySettings } from '../../../src/mocks/proxy/proxy.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/until.js';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';
import { startUpstream, type Upstream } from './upstream.js';

const SETTINGS = { timeoutMs: 30_000, maxConnections: 100, record: true, recordCookies: false, maxRecordBytes: 1e6 };

describe('serve-mocks --proxy --record', () => {
  let upstream: Upstream;
  let server: TestMockServer;
  let temp: ReturnType<typeof tempDir>;
  const file = () => `${temp.dir}/mocks.sqlite`;
  const start = (more: Partial<ProxySettings> = {}) =>
    startMockServer({ file: file(), config: { proxy: { ...SETTINGS, target: upstream.url, ...more } } });
  const recorded = (count: number) =>
    until(() => server.logs.filter((line) => line.startsWith('recorded ')).length === count);

  beforeEach(async () => {
    temp = tempDir();
    upstream = await startUpstream();
    upstream.answer = (req, res) => {
      const json = req.url!.startsWith('/users');
      res.writeHead(201, {
        'content-type': json ? 'application/json' : 'text/plain',
        'set-cookie': ['session=1', 'theme=dark'],
        'x-up': 'yes',
      });
      res.end(json ? JSON.stringify({ url: req.url }) : `text for ${req.url}`);
    };
    server = await start();
  });
  afterEach(async () => {
    await server.close();
    await upstream.close();
    temp.cleanup();
  });

  it('saves a JSON and a text answer that a fresh server on the same file serves with upstream gone', async () => {
    await server.fetch('/endpoint/users/1');
    await server.fetch('/endpoint/notes.txt', { method: 'POST', body: 'x' });
    await recorded(2);
    await server.close();
    await upstream.close();
    server = await startMockServer({ file: file() });
    const json = await server.fetch('/endpoint/users/1');
    expect(json.status).to.equal(201);
    expect(json.headers.get('x-up')).to.equal('yes');
    expect(json.headers.get('x-snippetkit-recorded')).to.equal(upstream.url);
    expect(await json.json()).to.deep.equal({ url: '/users/1' });
    const text = await server.fetch('/endpoint/notes.txt', { method: 'POST' });
    expect(await text.text()).to.equal('text for /notes.txt');
    expect(server.store.list().map((e) => e.record.name)).to.deep.equal(['get-users-1', 'post-notes.txt']);
  });

  it('a stop waits for recordings under way (a slow disk here), so an answer given is also saved', async () => {
    await server.close();
    // The save is held back past the time the rest of shutdown takes; close must wait for it.
    const slow = () => new Promise((resolve) => setTimeout(resolve, 300));
    server = await start({ save: async (_shape, input) => slow().then(() => server.store.put(input)) });
    expect((await server.fetch('/endpoint/users/9')).status).to.equal(201);
    await server.close();
    server = await startMockServer({ file: file() });
    expect(server.store.list().map((e) => e.record.name)).to.deep.equal(['get-users-9']);
  });

  it('stores JSON as data and text as body, without set-cookie', async () => {
    await server.fetch('/endpoint/users/1');
    await server.fetch('/endpoint/notes');
    await recorded(2);
    const [json] = server.store.get('get-users-1')!.record.responses!;
    expect(json!.json).to.equal('{"url":"/users/1"}');
    expect(json!.headers).to.deep.equal({ 'content-type': 'application/json', 'x-up': 'yes' });
    expect(server.store.get('get-notes')!.record.responses![0]!.body).to.equal('text for /notes');
  });

  it('keeps JSON that JSON.stringify would change (a 64-bit id) as the text it is, and replays it as sent', async () => {
    const sent = '{"id": 12345678901234567890}';
    upstream.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(sent);
    };
    await server.fetch('/endpoint/ids');
    await recorded(1);
    expect(server.store.get('get-ids')!.record.responses![0]!.body).to.equal(sent);
    await server.close();
    server = await startMockServer({ file: file() });
    const replay = await server.fetch('/endpoint/ids');
    expect(replay.headers.get('content-type')).to.equal('application/json');
    expect(await replay.text()).to.equal(sent);
  });

  it('keeps the first set-cookie with --record-cookies', async () => {
    await server.close();
    server = await start({ recordCookies: true });
    await server.fetch('/endpoint/users/1');
    await recorded(1);
    expect(server.store.get('get-users-1')!.record.responses![0]!.headers!['set-cookie']).to.equal('session=1');
  });

  it('records each query apart and forwards a query not recorded yet', async () => {
    await server.fetch('/endpoint/users?page=1');
    await recorded(1);
    const second = await server.fetch('/endpoint/users?page=2');
    expect(await second.json()).to.deep.equal({ url: '/users?page=2' });
    expect(second.headers.get('x-snippetkit-proxied')).to.equal(upstream.url);
    await recorded(2);
    const again = await server.fetch('/endpoint/users?page=1');
    expect(again.headers.get('x-snippetkit-proxied')).to.equal(null);
    expect(await again.json()).to.deep.equal({ url: '/users?page=1' });
    expect(upstream.received.map((r) => r.url)).to.deep.equal(['/users?page=1', '/users?page=2']);
    const queries = server.store.get('get-users')!.record.responses!.map((r) => r.when!.query);
    expect(queries).to.deep.equal([{ page: '1' }, { page: '2' }]);
  });

  it('passes on but does not record an answer over the size limit, and says so', async () => {
    await server.close();
    server = await start({ maxRecordBytes: 10 });
    const res = await server.fetch('/endpoint/users/1');
    expect(await res.json()).to.deep.equal({ url: '/users/1' });
    await until(() => server.logs.some((l) => l.startsWith('not recorded: GET /endpoint/users/1: its 18-byte body')));
    expect(server.store.list()).to.have.length(0);
  });

  it('records a binary answer as base64Body, which a fresh server replays byte for byte with upstream gone', async () => {
    // Not UTF-8 (0xff), and valid UTF-8 holding a NUL (an image can decode): both are bytes.
    const bodies = { '/blob': Buffer.from([0xff, 0xfe, 0x00, 0x01]), '/nul.png': Buffer.from('PNG\0\x01 text', 'latin1') };
    upstream.answer = (req, res) => {
      res.writeHead(200, { 'content-type': req.url === '/blob' ? 'application/octet-stream' : 'image/png' });
      res.end(bodies[req.url as keyof typeof bodies]);
    };
    for (const [path, bytes] of Object.entries(bodies)) {
      const res = await server.fetch(`/endpoint${path}`);
      expect(Buffer.from(await res.arrayBuffer())).to.deep.equal(bytes);
    }
    await recorded(2);
    expect(server.store.get('get-blob')!.record.responses![0]!.base64Body).to.equal('//4AAQ==');
    await server.close();
    await upstream.close();
    server = await startMockServer({ file: file() });
    for (const [path, bytes] of Object.entries(bodies)) {
      const res = await server.fetch(`/endpoint${path}`);
      expect(res.headers.get('content-type'), path).to.equal(path === '/blob' ? 'application/octet-stream' : 'image/png');
      expect(Buffer.from(await res.arrayBuffer()), path).to.deep.equal(bytes);
    }
  });

  it('passes on but does not record a gzip answer that inflates past the size limit', async () => {
    await server.close();
    server = await start({ maxRecordBytes: 100_000 });
    // 20 KB of gzip that inflates to 20 MB: decoded whole, it would take the memory the limit guards.
    const bomb = gzipSync(Buffer.alloc(20_000_000));
    expect(bomb.length).to.be.below(100_000);
    upstream.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-encoding': 'gzip' });
      res.end(bomb);
    };
    const res = await server.fetch('/endpoint/bomb', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).to.equal(200);
    await res.arrayBuffer();
    await until(() => server.logs.some((l) => l.includes('not recorded: GET /endpoint/bomb: its gzip body decodes to over 100000 bytes')));
    expect(server.store.list()).to.have.length(0);
  });

  it('goes on proxying, without recording, once the store is full', async () => {
    await server.close();
    server = await startMockServer({
      file: file(),
      store: { maxEndpoints: 1 },
      config: { proxy: { ...SETTINGS, target: upstream.url } },
    });
    await server.fetch('/endpoint/users/1');
    await recorded(1);
    const res = await server.fetch('/endpoint/users/2');
    expect(res.status).to.equal(201);
    await until(() => server.logs.some((l) => l.includes('no room for another endpoint')));
    expect(server.store.list()).to.have.length(1);
  });
});

describe('serve-mocks --record: what is recorded how', () => {
  let upstream: Upstream;
  let server: TestMockServer;
  beforeEach(async () => {
    upstream = await startUpstream();
    server = await startMockServer({ config: { proxy: { ...SETTINGS, target: upstream.url } } });
  });
  afterEach(async () => {
    await server.close();
    await upstream.close();
  });
  const logged = (text: string) => until(() => server.logs.some((line) => line.includes(text)));

  it('stores the decoded body of an answer upstream gzipped anyway', async () => {
    upstream.answer = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ asked: req.headers['accept-encoding'] })));
    };
    const res = await server.fetch('/endpoint/zipped', { headers: { 'accept-encoding': 'gzip' } });
    expect(await res.json()).to.deep.equal({ asked: 'identity' });
    await logged("as endpoint 'get-zipped'");
    const [response] = server.store.get('get-zipped')!.record.responses!;
    expect(response!.json).to.equal('{"asked":"identity"}');
    expect(response!.headers).to.deep.equal({ 'content-type': 'application/json' });
  });

  it('takes the next free name when the derived one is in use', async () => {
    await addEndpoint(server, { name: 'get-users-1', path: 'elsewhere', data: 1 });
    await server.fetch('/endpoint/users/1');
    await logged("as endpoint 'get-users-1-2'");
    expect(server.store.get('get-users-1-2')!.record.path).to.equal('users/1');
  });

  it('records no wildcard or parameter path, and says so', async () => {
    await server.fetch('/endpoint/*');
    await server.fetch('/endpoint/users/:id');
    await logged('not recorded: GET /endpoint/users/:id: only paths of letters');
    await logged('not recorded: GET /endpoint/*: only paths of letters');
    expect(server.store.list()).to.have.length(0);
  });
});

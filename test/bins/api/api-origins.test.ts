import { expect } from 'chai';
import { binConfigWith } from '../../../src/bins/config/defaults.js';
import { loadBinConfig } from '../../../src/cli/serve-bins/config.js';
import { KEYED, OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';

const KEY = 'sekrit-key';
const EVIL = 'https://evil.example';
const LOCAL = 'http://localhost:5173';
const FORM = 'application/x-www-form-urlencoded';
const refusal = (origin: string) => ({
  error:
    `${origin === 'null' ? 'pages with an opaque origin (null: sandboxed frames, files)' : `pages on ${origin}`} may not use this API; ` +
    "only this server's own pages and localhost pages may use the key, list or delete bins; " +
    (origin === 'null' ? 'only "*" in cors.ownerOrigins lets such pages in' : `add ${origin} to cors.ownerOrigins to allow them`),
});

describe('bin API: the Origins gate', () => {
  describe('with a key (writes need it)', () => {
    let server: TestBinServer;
    let bin: string;
    beforeEach(async () => {
      server = await startBinServer(KEYED);
      const saved = await server.postForm(`/api/save?api_key=${KEY}`, { html: 'mine' });
      bin = (await saved.json()).url;
    });
    afterEach(() => server.close());

    const revisions = async () => (await server.store.list()).flatMap((b) => b.revisions).length;

    // What a page can send without a preflight (a form, text/plain), and what it could only send after one.
    const writes: [string, string, RequestInit][] = [
      ['a form save with ?api_key', `/api/save?api_key=${KEY}`, { method: 'POST', headers: { 'content-type': FORM }, body: 'html=planted' }],
      ['a text/plain save with ?api_key', `/api/save?api_key=${KEY}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'html=planted' }],
      ['a save of the bin with the key', '/api/BIN/save', { method: 'POST', headers: { 'content-type': FORM, authorization: `token ${KEY}` }, body: 'html=planted' }],
      ['an upper-case path', `/API/save?api_key=${KEY}`, { method: 'POST', headers: { 'content-type': FORM }, body: 'html=planted' }],
      ['a delete', `/api/BIN/1?api_key=${KEY}`, { method: 'DELETE' }],
      ['a template', `/api/template?api_key=${KEY}`, { method: 'PUT', headers: { 'content-type': FORM }, body: 'html=planted' }],
      ['a live broadcast', `/api/BIN/live?api_key=${KEY}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"html":"planted"}' }],
      ['a key session', '/api/session', { method: 'POST', headers: { authorization: `token ${KEY}` } }],
    ];
    for (const origin of [EVIL, 'null']) {
      for (const [label, path, init] of writes) {
        it(`refuses ${label} from ${origin} with a 403, nothing done`, async () => {
          const res = await server.fetch(path.replace('BIN', bin), { ...init, headers: { ...(init.headers as object), origin } });
          expect(res.status).to.equal(403);
          expect(await res.json()).to.deep.equal(refusal(origin));
          expect(res.headers.get('access-control-allow-origin')).to.equal(null);
          expect(res.headers.get('set-cookie')).to.equal(null);
          expect(await revisions()).to.equal(1);
          expect(await (await server.fetch('/api/template')).text()).to.not.include('planted');
        });
      }
    }

    it("answers another page's preflights for the key, deletes and templates without CORS headers", async () => {
      for (const [method, headers, path] of [
        ['POST', 'authorization', '/api/save'],
        ['POST', 'content-type, Authorization', `/api/${bin}/live`],
        ['DELETE', '', `/api/${bin}`],
        ['PUT', 'content-type', '/api/template'],
        ['POST', 'content-type', '/api/session'],
      ]) {
        const res = await server.fetch(path!, {
          method: 'OPTIONS',
          headers: { origin: EVIL, 'access-control-request-method': method!, 'access-control-request-headers': headers! },
        });
        expect(res.status, `${method} ${path}`).to.equal(204);
        expect(res.headers.get('access-control-allow-origin'), `${method} ${path}`).to.equal(null);
        expect(res.headers.get('access-control-allow-methods'), `${method} ${path}`).to.equal(null);
      }
    });

    it('gives another page the list without CORS headers, even with the key', async () => {
      const res = await server.fetch(`/api?api_key=${KEY}`, { headers: { origin: EVIL } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('access-control-allow-origin')).to.equal(null);
      expect(res.headers.get('vary')).to.include('Origin');
    });

    it('keeps reading a bin open to every page (cors.origin)', async () => {
      for (const path of [`/api/${bin}`, `/api/${bin}/1`, `/api/${bin}?x=1`]) {
        const res = await server.fetch(path, { headers: { origin: EVIL } });
        expect(res.status, path).to.equal(200);
        expect(res.headers.get('access-control-allow-origin'), path).to.equal('*');
      }
      const pre = await server.fetch('/api/save', {
        method: 'OPTIONS',
        headers: { origin: EVIL, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(pre.headers.get('access-control-allow-origin')).to.equal('*');
    });

    for (const page of [LOCAL, 'http://127.0.0.1:8080', 'SELF']) {
      it(`lets ${page === 'SELF' ? "the server's own pages" : `a page on ${page}`} use the key, the list and deletes`, async () => {
        const origin = page === 'SELF' ? server.url : page;
        const pre = await server.fetch('/api/save', {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
        });
        expect([pre.status, pre.headers.get('access-control-allow-origin')]).to.deep.equal([204, origin]);
        expect(pre.headers.get('access-control-allow-headers')).to.equal('authorization');
        const headers = { origin, authorization: `token ${KEY}`, 'content-type': FORM };
        const saved = await server.fetch('/api/save', { method: 'POST', headers, body: 'html=two' });
        expect(saved.status).to.equal(200);
        expect(saved.headers.get('access-control-allow-origin')).to.equal(origin);
        expect(saved.headers.get('vary')).to.include('Origin');
        const list = await server.fetch('/api', { headers });
        expect([list.status, list.headers.get('access-control-allow-origin')]).to.deep.equal([200, origin]);
        const gone = await server.fetch(`/api/${bin}`, { method: 'DELETE', headers });
        expect(gone.status).to.equal(200);
      });
    }

    it('serves requests without Origin (curl, the CLI) as before', async () => {
      const res = await server.postForm(`/api/${bin}/save?api_key=${KEY}`, { html: 'curl' });
      expect(res.status).to.equal(200);
      expect((await server.fetch(`/api?api_key=${KEY}`)).status).to.equal(200);
    });
  });

  describe('open (anonymous writes, no key)', () => {
    let server: TestBinServer;
    let bin: string;
    beforeEach(async () => {
      server = await startBinServer(OPEN);
      bin = (await (await server.postForm('/api/save', { html: 'mine' })).json()).url;
    });
    afterEach(() => server.close());

    it('gives another page the list of every bin without CORS headers', async () => {
      const res = await server.fetch('/api', { headers: { origin: EVIL } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('access-control-allow-origin')).to.equal(null);
      const local = await server.fetch('/api/', { headers: { origin: LOCAL } });
      expect(local.headers.get('access-control-allow-origin')).to.equal(LOCAL);
    });

    it('refuses another page a delete', async () => {
      const res = await server.fetch(`/api/${bin}`, { method: 'DELETE', headers: { origin: EVIL } });
      expect([res.status, await res.json()]).to.deep.equal([403, refusal(EVIL)]);
      expect((await server.fetch(`/api/${bin}`)).status).to.equal(200);
    });

    it("keeps JS Bin's page-callable saves open to every page, as anyone may save here", async () => {
      const res = await server.postForm('/api/save', { html: 'from a page' }, { origin: EVIL });
      expect(res.status).to.equal(200);
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    });
  });

  describe('with cors.ownerOrigins', () => {
    let server: TestBinServer;
    before(async () => {
      server = await startBinServer({ ...KEYED, cors: { ownerOrigins: ['https://tools.example'] } });
    });
    after(() => server.close());

    it('lets that page use the key too, and no other', async () => {
      const init = (origin: string) => ({ method: 'POST', headers: { origin, 'content-type': FORM }, body: 'html=x' });
      const tools = await server.fetch(`/api/save?api_key=${KEY}`, init('https://tools.example'));
      expect([tools.status, tools.headers.get('access-control-allow-origin')]).to.deep.equal([200, 'https://tools.example']);
      expect((await server.fetch(`/api/save?api_key=${KEY}`, init('https://tools.example:444'))).status).to.equal(403);
    });
  });

  describe('cors.ownerOrigins', () => {
    it('takes origins as a browser sends them, from a file or a JSON list in SNIPPETKIT_CORS_OWNERORIGINS', () => {
      expect(binConfigWith({ cors: { ownerOrigins: ['HTTPS://Tools.example:443/', '*'] } }).cors.ownerOrigins).to.deep.equal(['https://tools.example', '*']);
      const env = { SNIPPETKIT_CORS_OWNERORIGINS: '["http://10.0.0.5:8080"]' };
      expect(loadBinConfig(undefined, env).cors.ownerOrigins).to.deep.equal(['http://10.0.0.5:8080']);
    });

    for (const [value, message] of [
      ['["https://tools.example/app"]', 'SNIPPETKIT_CORS_OWNERORIGINS=["https://tools.example/app"] (environment) is not an origin such as https://app.example or http://localhost:5173, or * for any page'],
      ['["null"]', 'SNIPPETKIT_CORS_OWNERORIGINS=["null"] (environment) is not an origin such as https://app.example or http://localhost:5173, or * for any page'],
      ['https://tools.example', 'SNIPPETKIT_CORS_OWNERORIGINS=https://tools.example (environment) is not a list of origins such as ["https://app.example"]'],
    ]) {
      it(`refuses ${value}, naming it`, () => {
        expect(() => loadBinConfig(undefined, { SNIPPETKIT_CORS_OWNERORIGINS: value })).to.throw(message!);
      });
    }
  });
});

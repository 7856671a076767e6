import { expect } from 'chai';
import { OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';

const ID = /^([bcdfghjklmnpqrstvwxyz][aeiou])+[bcdfghjklmnpqrstvwxyz]?$/;

describe('bin REST API', () => {
  let server: TestBinServer;
  beforeEach(async () => {
    server = await startBinServer(OPEN);
  });
  afterEach(() => server.close());

  async function save(fields: Record<string, string>, bin?: string) {
    const res = await server.postForm(bin ? `/api/${bin}/save` : '/api/save', fields);
    return { status: res.status, body: await res.json() };
  }

  describe('POST /api/save', () => {
    it('creates a bin at snapshot 1 with a pronounceable id and a summary', async () => {
      const { status, body } = await save({ html: '<p>Hello <b>world</b></p>', css: 'p{}', javascript: 'x()' });
      expect(status).to.equal(200);
      expect(Object.keys(body).sort()).to.deep.equal(['snapshot', 'summary', 'url']);
      expect(body.url).to.match(ID);
      expect(body.url).to.have.length.of.at.least(6);
      expect(body.snapshot).to.equal(1);
      expect(body.summary).to.equal('Hello world');
    });

    it('gives every new bin its own id', async () => {
      const ids = await Promise.all(Array.from({ length: 30 }, () => save({ html: 'x' }).then((r) => r.body.url)));
      expect(new Set(ids).size).to.equal(30);
    });

    it('accepts a JSON body with settings as a JSON string, as jsbin-client sends it', async () => {
      const res = await server.fetch('/api/save', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ html: '<b>a</b>', settings: JSON.stringify({ processors: { html: 'markdown' } }) }),
      });
      expect(res.status).to.equal(200);
      const { url } = await res.json();
      const bin = await (await server.fetch(`/api/${url}`)).json();
      expect(bin.settings).to.deep.equal({ processors: { html: 'markdown' } });
    });
  });

  describe('GET /api/:bin and /api/:bin/:rev', () => {
    it('answers the latest revision with exactly JS Bin\'s keys', async () => {
      const { body: saved } = await save({ html: 'h', css: 'c', javascript: 'j' });
      const res = await server.fetch(`/api/${saved.url}`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
      const bin = await res.json();
      expect(Object.keys(bin).sort()).to.deep.equal(
        ['css', 'html', 'javascript', 'last_updated', 'settings', 'snapshot', 'url'].sort(),
      );
      expect(bin).to.include({ html: 'h', css: 'c', javascript: 'j', url: saved.url, snapshot: 1 });
      expect(bin.settings).to.deep.equal({});
      expect(new Date(bin.last_updated).toISOString()).to.equal(bin.last_updated);
    });

    it('answers a given revision and keeps earlier ones as they were', async () => {
      const { body: first } = await save({ html: 'one' });
      await save({ html: 'two' }, first.url);
      const one = await (await server.fetch(`/api/${first.url}/1`)).json();
      const two = await (await server.fetch(`/api/${first.url}/2`)).json();
      expect([one.html, one.snapshot, two.html, two.snapshot]).to.deep.equal(['one', 1, 'two', 2]);
    });

    for (const rev of ['latest', '0', 'foo', '1.5', '-1']) {
      it(`reads revision "${rev}" as the latest`, async () => {
        const { body: first } = await save({ html: 'one' });
        await save({ html: 'two' }, first.url);
        const res = await server.fetch(`/api/${first.url}/${rev}`);
        expect(res.status).to.equal(200);
        expect((await res.json()).snapshot).to.equal(2);
      });
    }

    for (const rev of ['3', '99999999999999999999999']) {
      it(`answers 404 for revision ${rev.slice(0, 10)} that does not exist`, async () => {
        const { body } = await save({ html: 'one' });
        await save({ html: 'two' }, body.url);
        const res = await server.fetch(`/api/${body.url}/${rev}`);
        expect(res.status).to.equal(404);
        expect(await res.json()).to.deep.equal({ error: 'not found' });
      });
    }

    for (const [what, path] of [
      ['an unknown bin', '/api/nosuchbin'],
      ['an id with a dot', '/api/a.b'],
      ['an id with unicode', '/api/%E2%9C%93'],
      ['an id with an encoded slash', '/api/a%2Fb'],
      ['a 10 KB id', `/api/${'a'.repeat(10_000)}`],
      ['a reserved name', '/api/status'],
      ['an unknown API path', '/api/abc/1/2/3'],
    ]) {
      it(`answers 404 {"error":"not found"} for ${what}`, async () => {
        const res = await server.fetch(path);
        expect(res.status).to.equal(404);
        expect(await res.json()).to.deep.equal({ error: 'not found' });
      });
    }

    it('matches ids case-insensitively', async () => {
      const { body } = await save({ html: 'x' });
      const res = await server.fetch(`/api/${body.url.toUpperCase()}`);
      expect(res.status).to.equal(200);
      expect((await res.json()).url).to.equal(body.url);
    });
  });

  describe('POST /api/:bin/save', () => {
    it('appends the next revision and saves panels not sent as empty', async () => {
      const { body: first } = await save({ html: 'h', css: 'c', javascript: 'j' });
      const { status, body } = await save({ css: 'only css' }, first.url);
      expect(status).to.equal(200);
      expect(body).to.deep.equal({ url: first.url, snapshot: 2, summary: 'only css' });
      const latest = await (await server.fetch(`/api/${first.url}`)).json();
      expect(latest).to.include({ html: '', javascript: '', css: 'only css', snapshot: 2 });
    });

    it('claims an unused valid name at snapshot 1, then appends', async () => {
      expect((await save({ html: 'a' }, 'my-demo_1')).body).to.include({ url: 'my-demo_1', snapshot: 1 });
      expect((await save({ html: 'b' }, 'My-Demo_1')).body).to.include({ url: 'my-demo_1', snapshot: 2 });
    });

    it('deep-merges settings over the previous revision', async () => {
      const { body } = await save({ html: 'a', settings: JSON.stringify({ processors: { html: 'markdown' }, title: 'T' }) });
      await save({ html: 'b', settings: JSON.stringify({ processors: { css: 'less' } }) }, body.url);
      await save({ html: 'c' }, body.url);
      const latest = await (await server.fetch(`/api/${body.url}`)).json();
      expect(latest.settings).to.deep.equal({ processors: { html: 'markdown', css: 'less' }, title: 'T' });
      const first = await (await server.fetch(`/api/${body.url}/1`)).json();
      expect(first.settings).to.deep.equal({ processors: { html: 'markdown' }, title: 'T' });
    });

    it('refuses reserved names and bad ids with 404 and stores nothing', async () => {
      for (const bin of ['api', 'edit', 'a.b', 'x'.repeat(100)]) {
        const res = await server.postForm(`/api/${bin}/save`, { html: 'x' });
        expect(res.status, bin).to.equal(404);
        expect(await res.json()).to.deep.equal({ error: 'not found' });
      }
      expect(await server.store.list()).to.deep.equal([]);
    });

    it("refuses a save that names one of the joint server's words with a 400 naming it, and stores nothing", async () => {
      for (const [bin, word] of [['mocks', 'mocks'], ['Endpoint', 'endpoint'], ['whoami', 'whoami']]) {
        const res = await server.postForm(`/api/${bin}/save`, { html: 'x' });
        expect(res.status, bin).to.equal(400);
        expect(await res.json()).to.deep.equal({ error: `${word} is a reserved word, not a bin id: choose another name`, field: 'bin' });
        expect((await server.fetch(`/api/${bin}`)).status, bin).to.equal(404);
      }
      expect(await server.store.list()).to.deep.equal([]);
    });

    it('still reads a bin saved under one of those words before they were reserved, and takes no new revision of it', async () => {
      // As in a data file of an older version: the store takes any id.
      await server.store.append('mocks', () => ({ html: '<p>old</p>', javascript: '', css: '', settings: {} }));
      const read = await server.fetch('/api/mocks');
      expect(read.status).to.equal(200);
      expect(await read.json()).to.include({ url: 'mocks', snapshot: 1, html: '<p>old</p>' });
      const page = await server.fetch('/mocks/1');
      expect(page.status).to.equal(200);
      expect(await page.text()).to.include('<p>old</p>');
      const res = await server.postForm('/api/mocks/save', { html: 'new' });
      expect(res.status).to.equal(400);
      expect((await server.store.revisions('mocks')).length).to.equal(1);
    });
  });

  describe('DELETE and listing', () => {
    const key = { ownership: { api_key: 'k' } };
    let keyed: TestBinServer;
    beforeEach(async () => {
      keyed = await startBinServer(key);
    });
    afterEach(() => keyed.close());
    const auth = { Authorization: 'token k' };

    async function keyedSave(html: string, bin?: string) {
      const res = await keyed.postForm(bin ? `/api/${bin}/save` : '/api/save', { html }, auth);
      return (await res.json()) as { url: string; snapshot: number };
    }

    it('deletes a revision; latest falls back and numbers are never reused', async () => {
      const { url } = await keyedSave('one');
      await keyedSave('two', url);
      const res = await keyed.fetch(`/api/${url}/2`, { method: 'DELETE', headers: auth });
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ url, snapshot: 2, deleted: true });
      expect((await keyed.fetch(`/api/${url}/2`)).status).to.equal(404);
      expect((await (await keyed.fetch(`/api/${url}`)).json()).html).to.equal('one');
      expect((await keyedSave('three', url)).snapshot).to.equal(3);
    });

    it('deletes the latest revision when none is named, and 404s once none are left', async () => {
      const { url } = await keyedSave('one');
      const res = await keyed.fetch(`/api/${url}`, { method: 'DELETE', headers: auth });
      expect(await res.json()).to.deep.equal({ url, snapshot: 1, deleted: true });
      expect((await keyed.fetch(`/api/${url}`)).status).to.equal(404);
      expect((await keyed.fetch(`/api/${url}`, { method: 'DELETE', headers: auth })).status).to.equal(404);
      expect((await keyedSave('again', url)).snapshot).to.equal(2);
    });

    it('lists every bin newest first, revisions newest first, with title and description', async () => {
      const first = await keyedSave('old');
      // The order is by creation time, in milliseconds: the next save must land in a later one.
      const saved = Date.now();
      while (Date.now() === saved) await new Promise((r) => setImmediate(r));
      const res = await keyed.postForm(
        '/api/save',
        { html: 'new', settings: JSON.stringify({ title: 'My title', description: 'About it' }) },
        auth,
      );
      const second = await res.json();
      await keyedSave('newer', second.url);
      const list = await (await keyed.fetch('/api?api_key=k')).json();
      expect(list).to.have.length(2);
      expect(list[0].map((r: { snapshot: number }) => r.snapshot)).to.deep.equal([2, 1]);
      expect(list[0][0]).to.include({ url: second.url, title: 'My title', description: 'About it' });
      expect(list[0][0].pretty_last_updated).to.equal('just now');
      expect(Object.keys(list[1][0]).sort()).to.deep.equal(['last_updated', 'pretty_last_updated', 'snapshot', 'url']);
      expect(list[1][0].url).to.equal(first.url);
    });

    it('needs the key to list or delete', async () => {
      const { url } = await keyedSave('one');
      for (const [method, path] of [['GET', '/api'], ['DELETE', `/api/${url}/1`]]) {
        const res = await keyed.fetch(path, { method });
        expect(res.status).to.equal(403);
        expect(await res.json()).to.deep.equal({ error: 'You need to provide a valid API key when using this API' });
      }
      expect((await keyed.fetch(`/api/${url}/1`)).status).to.equal(200);
    });
  });

  describe('HTTP details', () => {
    it('sends CORS headers on answers and errors', async () => {
      const ok = await server.fetch('/api/nosuch', { headers: { Origin: 'http://example.test' } });
      expect(ok.headers.get('access-control-allow-origin')).to.equal('*');
    });

    it('answers a CORS preflight without a key', async () => {
      const res = await server.fetch('/api/save', {
        method: 'OPTIONS',
        // A loopback page: another origin may not send the key (test/bins/api/api-origins.test.ts).
        headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' },
      });
      expect(res.status).to.equal(204);
      expect(res.headers.get('access-control-allow-methods')).to.include('POST');
      expect(res.headers.get('access-control-allow-headers')).to.equal('authorization');
    });

    it('never sets cookies', async () => {
      const res = await server.postForm('/api/save', { html: 'x' });
      expect(res.headers.get('set-cookie')).to.equal(null);
    });

    it('answers /status with OK', async () => {
      const res = await server.fetch('/status');
      expect(res.status).to.equal(200);
      expect(await res.text()).to.equal('OK');
    });
  });
});

import { expect } from 'chai';
import { ALL_ONLY_TRUE, ALL_WITH_REV } from '../../../src/bins/api/api.js';
import { INVALID_KEY, KEY_NEEDED, READ_ONLY } from '../../../src/bins/auth/auth.js';
import { KEYED, OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';

const KEY = KEYED.ownership.api_key;
const panels = (html: string) => ({ html, javascript: '', css: '', settings: {} });

/** Saves `count` revisions of `bin` straight through the store. */
async function seed(server: TestBinServer, bin: string, count: number) {
  for (let i = 1; i <= count; i++) await server.store.append(bin, () => panels(`<p>${bin} ${i}</p>`));
}

const revisionsOf = async (server: TestBinServer, bin: string) => (await server.store.revisions(bin)).map((r) => r.rev);

describe('DELETE /api/:bin?all=true (a whole bin)', () => {
  let server: TestBinServer;
  beforeEach(async () => {
    server = await startBinServer(KEYED);
    await seed(server, 'doomed', 3);
    await seed(server, 'kept', 1);
  });
  afterEach(() => server.close());

  const remove = (path: string, headers: Record<string, string> = {}) => server.fetch(path, { method: 'DELETE', headers });

  it('deletes every revision with the key and says how many', async () => {
    const res = await remove('/api/doomed?all=true', { authorization: `token ${KEY}` });
    expect([res.status, await res.json()]).to.deep.equal([200, { url: 'doomed', snapshot: 3, deleted: true, revisions: 3 }]);
    expect(await revisionsOf(server, 'doomed')).to.deep.equal([]);
    for (const path of ['/api/doomed', '/api/doomed/1', '/api/doomed/3']) {
      expect([path, (await server.fetch(path)).status]).to.deep.equal([path, 404]);
    }
    expect((await server.fetch('/doomed')).status).to.equal(404);
    expect(await revisionsOf(server, 'kept')).to.deep.equal([1]);
  });

  it('leaves the list without the bin', async () => {
    await remove(`/api/doomed?all=true&api_key=${KEY}`);
    const list = await (await server.fetch('/list', { headers: { authorization: `token ${KEY}` } })).text();
    expect(list).to.include('data-bin="kept"').and.not.include('data-bin="doomed"');
  });

  it('never gives a deleted revision number again', async () => {
    await remove(`/api/doomed?all=true&api_key=${KEY}`);
    const saved = await server.postForm(`/api/doomed/save?api_key=${KEY}`, { html: 'again' });
    expect((await saved.json()).snapshot).to.equal(4);
  });

  const missing: [string, string][] = [
    ['an unknown bin', '/api/nosuchbin?all=true'],
    ['a bin deleted already', '/api/doomed?all=true'],
    ['a reserved name', '/api/list?all=true'],
    ['an id with a dot', '/api/doo.med?all=true'],
    ['an encoded slash', '/api/doo%2Fmed?all=true'],
  ];
  for (const [name, path] of missing) {
    it(`answers ${name} with a JSON 404`, async () => {
      if (name === 'a bin deleted already') await remove(`/api/doomed?all=true&api_key=${KEY}`);
      const res = await remove(path, { authorization: `token ${KEY}` });
      expect([res.status, await res.json()]).to.deep.equal([404, { error: 'not found' }]);
      expect(await revisionsOf(server, 'kept')).to.deep.equal([1]);
    });
  }

  const refused: [string, string, Record<string, string>, number, string][] = [
    ['no key', '/api/doomed?all=true', {}, 403, KEY_NEEDED],
    ['a wrong key', '/api/doomed?all=true', { authorization: 'token nope' }, 403, INVALID_KEY],
    ['a wrong ?api_key=', '/api/doomed?all=true&api_key=nope', {}, 403, INVALID_KEY],
    ['all=yes', `/api/doomed?all=yes&api_key=${KEY}`, {}, 400, ALL_ONLY_TRUE],
    ['all with a revision', `/api/doomed/2?all=true&api_key=${KEY}`, {}, 400, ALL_WITH_REV],
  ];
  for (const [name, path, headers, status, error] of refused) {
    it(`refuses ${name} with a JSON ${status}, deleting nothing`, async () => {
      const res = await remove(path, headers);
      expect([res.status, await res.json()]).to.deep.equal([status, { error }]);
      expect(await revisionsOf(server, 'doomed')).to.deep.equal([3, 2, 1]);
    });
  }

  describe('with the browser session cookie', () => {
    let cookie: string;
    beforeEach(async () => {
      const res = await server.fetch('/api/session', { method: 'POST', headers: { authorization: `token ${KEY}` } });
      cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    });

    it('deletes from our own page', async () => {
      const res = await remove('/api/doomed?all=true', { cookie, origin: server.url });
      expect([res.status, (await res.json()).revisions]).to.deep.equal([200, 3]);
    });

    for (const origin of ['https://evil.example', 'null']) {
      it(`refuses a page on ${origin}, deleting nothing`, async () => {
        const res = await remove('/api/doomed?all=true', { cookie, origin });
        expect(res.status).to.equal(403);
        expect((await res.json()).error).to.match(/may not use this API/);
        expect(res.headers.get('access-control-allow-origin')).to.equal(null);
        expect(await revisionsOf(server, 'doomed')).to.deep.equal([3, 2, 1]);
      });
    }

    it('refuses a request that is no page of ours (no Origin): the cookie alone is not the key', async () => {
      const res = await remove('/api/doomed?all=true', { cookie });
      expect([res.status, await res.json()]).to.deep.equal([403, { error: KEY_NEEDED }]);
      expect(await revisionsOf(server, 'doomed')).to.deep.equal([3, 2, 1]);
    });

    it('refuses a localhost page on another port, which shares the cookie jar', async () => {
      const other = server.url.replace(/:\d+$/, ':1');
      const res = await remove('/api/doomed?all=true', { cookie, origin: other });
      expect([res.status, await res.json()]).to.deep.equal([403, { error: KEY_NEEDED }]);
      expect(await revisionsOf(server, 'doomed')).to.deep.equal([3, 2, 1]);
    });
  });
});

describe('DELETE /api/:bin?all=true on a read-only server (no key set)', () => {
  let server: TestBinServer;
  before(async () => {
    server = await startBinServer({});
    await seed(server, 'doomed', 2);
  });
  after(() => server.close());

  it('refuses with a 403 naming the settings, deleting nothing', async () => {
    for (const origin of [undefined, server.url]) {
      const res = await server.fetch('/api/doomed?all=true', { method: 'DELETE', headers: origin ? { origin } : {} });
      expect([res.status, await res.json()]).to.deep.equal([403, { error: READ_ONLY }]);
    }
    expect(READ_ONLY).to.include('ownership.api_key').and.include('api.allowAnonymousReadWrite');
    expect(await revisionsOf(server, 'doomed')).to.deep.equal([2, 1]);
  });

  it('refuses any key, as none is the key', async () => {
    const res = await server.fetch('/api/doomed?all=true&api_key=guess', { method: 'DELETE' });
    expect([res.status, await res.json()]).to.deep.equal([403, { error: INVALID_KEY }]);
  });
});

describe('DELETE /api/:bin?all=true where anyone may write', () => {
  it('deletes without a key', async () => {
    const server = await startBinServer(OPEN);
    try {
      await seed(server, 'doomed', 2);
      const res = await server.fetch('/api/doomed?all=true', { method: 'DELETE' });
      expect([res.status, (await res.json()).revisions]).to.deep.equal([200, 2]);
    } finally {
      await server.close();
    }
  });
});

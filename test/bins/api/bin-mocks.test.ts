import { expect } from 'chai';
import { OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';

// A revision's mocks (docs/bin-api.md, "A sketch with its API"): the endpoint records a save sends as
// `mocks`, checked by the mock server's own record validation, kept in the revision's settings and shown
// as the revision's own `mocks` key; JS Bin's answers keep their shape for every revision without them.

const CREW = { name: 'crew', path: 'crew/:id?', statusCode: 200, data: [{ id: 1, name: 'Ada' }], delay: 0 };
const LOGIN = { name: 'login', methods: ['POST'], statusCode: 401, data: { ok: false }, delay: 0 };
const JS_BIN_KEYS = ['css', 'html', 'javascript', 'last_updated', 'settings', 'snapshot', 'url'];

describe('a revision\'s mocks in the bin API', () => {
  let server: TestBinServer;
  before(async () => {
    server = await startBinServer({ ...OPEN, blacklist: { html: ['spamword'] } });
  });
  after(() => server.close());

  async function saveJson(body: unknown, path = '/api/save') {
    const res = await server.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  }
  const read = async (path: string) => (await server.fetch(`/api/${path}`)).json();

  it('keeps the mocks of a form save (the fast path) and answers them beside the settings, not in them', async () => {
    const res = await server.postForm('/api/save', {
      javascript: "fetch('/endpoint/crew/1')",
      settings: JSON.stringify({ processors: { javascript: 'javascript' } }),
      mocks: JSON.stringify([CREW, LOGIN]),
    });
    expect(res.status).to.equal(200);
    const { url } = await res.json();
    const bin = await read(url);
    expect(Object.keys(bin)).to.deep.equal(['javascript', 'html', 'css', 'settings', 'last_updated', 'url', 'snapshot', 'mocks']);
    expect(bin.settings).to.deep.equal({ processors: { javascript: 'javascript' } });
    expect(bin.mocks).to.deep.equal([CREW, LOGIN]);
  });

  it("leaves the mocks out of the editor page's data, which starts from the settings' processors", async () => {
    const { body } = await saveJson({ javascript: "fetch('/endpoint/crew/1')", mocks: [CREW] });
    const page = await (await server.fetch(`/${body.url}/1/edit`)).text();
    expect(page).to.include('/endpoint/crew/1');
    expect(page).not.to.include('Ada');
  });

  it('keeps the mocks of a JSON save, given as a list, and drops what a record answer adds', async () => {
    const answer = { success: true, ...CREW, hits: 4, lastCall: null, created: 'x', updated: 'y', url: 'http://h/endpoint/crew/:id?', source: 'f.json' };
    const { status, body } = await saveJson({ html: '<p>hi</p>', mocks: [answer] });
    expect(status).to.equal(200);
    expect((await read(body.url)).mocks).to.deep.equal([CREW]);
  });

  it('answers exactly JS Bin\'s keys for a revision saved without mocks, or with an empty list', async () => {
    for (const mocks of [undefined, '', '[]']) {
      const res = await server.postForm('/api/save', { html: 'x', ...(mocks !== undefined && { mocks }) });
      const bin = await read((await res.json()).url);
      expect(Object.keys(bin).sort()).to.deep.equal(JS_BIN_KEYS);
      expect(bin.settings).to.deep.equal({});
    }
  });

  it('gives a new revision only the mocks sent with it, never the previous revision\'s, and keeps its settings', async () => {
    const first = await saveJson({ html: 'one', settings: { title: 'T' }, mocks: [CREW] });
    const second = await saveJson({ html: 'two' }, `/api/${first.body.url}/save`);
    expect(second.body.snapshot).to.equal(2);
    const latest = await read(first.body.url);
    expect(Object.keys(latest).sort()).to.deep.equal(JS_BIN_KEYS);
    expect(latest.settings).to.deep.equal({ title: 'T' });
    expect((await read(`${first.body.url}/1`)).mocks).to.deep.equal([CREW]);
    const third = await saveJson({ html: 'three', mocks: [LOGIN] }, `/api/${first.body.url}/save`);
    expect((await read(`${first.body.url}/${third.body.snapshot}`)).mocks).to.deep.equal([LOGIN]);
  });

  it('leaves the mocks out of the save\'s summary', async () => {
    const { body } = await saveJson({ html: '<p>Sketch</p>', mocks: [CREW] });
    expect(body.summary).to.equal('Sketch');
  });

  type Case = { name: string; body: Record<string, unknown>; status: number; error: unknown };
  const many = Array.from({ length: 101 }, (_, i) => ({ name: `e${i}`, data: i }));
  const deep = { name: 'deep', data: JSON.parse(`${'['.repeat(70)}1${']'.repeat(70)}`) };
  const cases: Case[] = [
    { name: 'mocks that are not JSON', body: { html: 'x', mocks: '[{' }, status: 400, error: { error: 'mocks is not valid JSON', field: 'mocks' } },
    { name: 'mocks that are an object', body: { html: 'x', mocks: { crew: CREW } }, status: 400, error: { error: 'mocks must be a list of endpoint records', field: 'mocks' } },
    { name: 'mocks that are a number', body: { html: 'x', mocks: 5 }, status: 400, error: { error: 'mocks must be a list of endpoint records', field: 'mocks' } },
    { name: '101 records', body: { html: 'x', mocks: many }, status: 400, error: { error: 'mocks holds 101 records; a revision keeps at most 100', field: 'mocks' } },
    { name: 'a record that is a string', body: { html: 'x', mocks: ['crew'] }, status: 400, error: { error: 'mocks[0] must be an endpoint record (a JSON object)', field: 'mocks[0]' } },
    { name: 'a record without data or body', body: { html: 'x', mocks: [CREW, { name: 'bare' }] }, status: 400, error: { error: 'mocks[1] (bare): data, body or base64Body is required', field: 'mocks[1].data' } },
    { name: 'a record with a bad path', body: { html: 'x', mocks: [{ name: 'p', path: 'a//b', data: 1 }] }, status: 400, error: { error: "mocks[0] (p): path: segment 2 is empty (two slashes in a row)", field: 'mocks[0].path' } },
    { name: 'a record with an unknown field', body: { html: 'x', mocks: [{ ...CREW, secret: 1 }] }, status: 400, error: { error: /^mocks\[0\] \(crew\): unknown field 'secret'; the record takes name, path, methods, /, field: 'mocks[0].secret' } },
    { name: 'a record without a name', body: { html: 'x', mocks: [{ data: 1 }] }, status: 400, error: { error: 'mocks[0]: name is required', field: 'mocks[0].name' } },
    { name: 'a nested name (a file\'s)', body: { html: 'x', mocks: [{ name: 'a/b', data: 1 }] }, status: 400, error: { error: 'mocks[0] (a/b): name must be 1 to 128 characters, each a letter, a digit or one of . _ ~ -', field: 'mocks[0].name' } },
    { name: 'a delay past the mock server\'s default --max-delay', body: { html: 'x', mocks: [{ name: 'slow', data: 1, delay: 600_000 }] }, status: 400, error: { error: 'mocks[0] (slow): delay must be a number of milliseconds from 0 to 60000', field: 'mocks[0].delay' } },
    { name: 'a template that does not compile', body: { html: 'x', mocks: [{ name: 't', template: true, data: '{{#if}}' }] }, status: 400, error: null },
    { name: 'a name given twice', body: { html: 'x', mocks: [CREW, { ...LOGIN, name: 'crew' }] }, status: 400, error: { error: "mocks[1] (crew): the name is also mocks[0]'s", field: 'mocks[1].name' } },
    { name: 'data nested 70 levels deep', body: { html: 'x', mocks: [deep] }, status: 400, error: { error: 'mocks[0] (deep) is nested more than 64 levels deep', field: 'mocks[0]' } },
    { name: 'mocks hidden in the settings', body: { html: 'x', settings: { mocks: [CREW] } }, status: 400, error: { error: "settings.mocks is not a setting: send a revision's mocks as the save's own mocks field", field: 'settings.mocks' } },
    { name: 'blacklisted content in a mock', body: { html: 'x', mocks: [{ name: 'spam', data: 'buy spamword' }] }, status: 400, error: { error: 'Unable to save: Post contains blacklisted content' } },
    { name: 'mocks with no panel', body: { mocks: [CREW] }, status: 400, error: { error: 'Unable to save: The bin has no content' } },
    { name: 'mocks past the body limit', body: { html: 'x', mocks: [{ name: 'big', data: 'a'.repeat(1024 * 1024) }] }, status: 413, error: { error: 'request body too large (the limit is 1048576 bytes)' } },
  ];
  for (const c of cases) {
    it(`answers ${c.status} for ${c.name} and stores nothing`, async () => {
      const before = (await server.store.list()).length;
      const { status, body } = await saveJson(c.body);
      expect(status).to.equal(c.status);
      if (c.error === null) expect(body).to.have.keys('error', 'field');
      // The record's field list grows with the record: the message is matched by its start.
      else if ((c.error as { error?: unknown }).error instanceof RegExp) {
        const { error, field } = c.error as { error: RegExp; field: string };
        expect(body.error).to.match(error);
        expect(body.field).to.equal(field);
      }
      else expect(body).to.deep.equal(c.error);
      expect((await server.store.list()).length).to.equal(before);
    });
  }

  it('refuses the same bad mocks in a form save, which the fast path hands to the Koa route', async () => {
    const before = (await server.store.list()).length;
    const res = await server.postForm('/api/save', { html: 'x', mocks: JSON.stringify([{ name: 'bare' }]) });
    expect(res.status).to.equal(400);
    expect(await res.json()).to.deep.equal({ error: 'mocks[0] (bare): data, body or base64Body is required', field: 'mocks[0].data' });
    expect((await server.store.list()).length).to.equal(before);
  });

  it('keeps no mocks in the template: a template save with them is a 400', async () => {
    const res = await server.fetch('/api/template', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ html: 'start', mocks: [CREW] }),
    });
    expect(res.status).to.equal(400);
    expect(await res.json()).to.deep.equal({ error: 'a template keeps no mocks: new bins start without them', field: 'mocks' });
    expect((await (await server.fetch('/api/template')).json()).html).to.not.equal('start');
  });
});

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INVALID_KEY, KEY_NEEDED } from '../../../src/bins/auth/auth.js';
import { KEYED, OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';
import type { TestResponse } from '../../helpers/http.js';
import { tempDir } from '../../helpers/temp.js';

const STARTER = readFileSync(new URL('../../../templates/starter.html', import.meta.url), 'utf8');
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const MINE = { html: '<main>mine</main>', css: 'main{color:red}', javascript: 'start()' };
const PROCESSORS = { processors: { html: 'html', css: 'less', javascript: 'javascript' } };

/** The EditorData JSON the editor page carries. */
async function editorData(res: TestResponse): Promise<any> {
  const page = await res.text();
  const json = /<script type="application\/json" id="editor-data">(.*)<\/script>/.exec(page)?.[1];
  if (json === undefined) throw new Error(`no editor data in ${page}`);
  return JSON.parse(json);
}

function putForm(server: TestBinServer, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams(fields).toString();
  return server.fetch('/api/template', { method: 'PUT', headers: { 'content-type': FORM, ...headers }, body });
}

async function getTemplate(server: TestBinServer): Promise<any> {
  const res = await server.fetch('/api/template');
  expect(res.status).to.equal(200);
  return res.json();
}

describe('the template new bins start from', () => {
  let server: TestBinServer;
  beforeEach(async () => {
    server = await startBinServer({ ...OPEN, blacklist: { html: ['spamword'] } });
  });
  afterEach(() => server.close());

  it('is the built-in starter until one is saved', async () => {
    const res = await server.fetch('/api/template');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(await res.json()).to.deep.equal({ javascript: '', html: STARTER, css: '', settings: {}, last_updated: null });
  });

  it('answers a PUT with the template saved, and GET with it afterwards', async () => {
    const res = await putForm(server, { ...MINE, settings: JSON.stringify(PROCESSORS) });
    expect(res.status).to.equal(200);
    const saved = await res.json();
    expect(saved).to.deep.include({ ...MINE, settings: PROCESSORS });
    expect(new Date(saved.last_updated).toISOString()).to.equal(saved.last_updated);
    expect(await getTemplate(server)).to.deep.equal(saved);
  });

  it('takes a JSON body with settings as an object', async () => {
    const body = JSON.stringify({ html: '<p>json</p>', settings: PROCESSORS });
    const res = await server.fetch('/api/template', { method: 'PUT', headers: { 'content-type': JSON_TYPE }, body });
    expect(res.status).to.equal(200);
    expect(await getTemplate(server)).to.deep.include({ html: '<p>json</p>', css: '', javascript: '', settings: PROCESSORS });
  });

  it('is replaced whole by the next PUT, settings included', async () => {
    await putForm(server, { ...MINE, settings: JSON.stringify(PROCESSORS) });
    await putForm(server, { css: 'b{}' });
    expect(await getTemplate(server)).to.deep.include({ html: '', css: 'b{}', javascript: '', settings: {} });
  });

  it('is what the new-bin editor at / starts from', async () => {
    await putForm(server, { ...MINE, settings: JSON.stringify(PROCESSORS) });
    const data = await editorData(await server.fetch('/'));
    expect(data).to.deep.include({ bin: null, rev: null, panels: MINE, settings: PROCESSORS });
  });

  it('goes back to the built-in starter on DELETE, for the API and for /', async () => {
    await putForm(server, MINE);
    const res = await server.fetch('/api/template', { method: 'DELETE' });
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ javascript: '', html: STARTER, css: '', settings: {}, last_updated: null });
    expect((await editorData(await server.fetch('/'))).panels).to.deep.equal({ html: STARTER, css: '', javascript: '' });
  });

  it('is no bin: it is not listed, and `template` names no bin', async () => {
    await putForm(server, MINE);
    expect(await server.store.list()).to.deep.equal([]);
    expect((await server.postForm('/api/template/save', MINE)).status).to.equal(404);
    expect((await server.fetch('/template')).status).to.equal(404);
  });

  it('is answered by the router in any case, not as an unknown bin', async () => {
    await putForm(server, MINE);
    expect(await (await server.fetch('/api/TEMPLATE')).json()).to.deep.include(MINE);
  });

  it('allows PUT in CORS preflights', async () => {
    // A loopback page: templates are the owner's (test/bins/api/api-origins.test.ts).
    const headers = { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'PUT' };
    const res = await server.fetch('/api/template', { method: 'OPTIONS', headers });
    expect(res.headers.get('access-control-allow-methods')).to.include('PUT');
  });

  const bad: { name: string; type: string; body: string; status: number; error: unknown }[] = [
    { name: 'all panels empty', type: FORM, body: 'html=&css=%20', status: 400, error: { error: 'Unable to save: The bin has no content' } },
    { name: 'blacklisted content', type: FORM, body: 'html=spamword', status: 400, error: { error: 'Unable to save: Post contains blacklisted content' } },
    { name: 'a panel that is a number', type: JSON_TYPE, body: '{"html": 5}', status: 400, error: { error: 'html must be a string', field: 'html' } },
    { name: 'settings that are a JSON array', type: FORM, body: 'html=x&settings=%5B1%5D', status: 400, error: { error: 'settings must be a JSON object', field: 'settings' } },
    { name: 'malformed JSON', type: JSON_TYPE, body: '{"html": ', status: 400, error: { error: 'malformed JSON body' } },
    { name: 'a text/plain body', type: 'text/plain', body: 'html=hi', status: 415, error: { error: 'send the save as application/x-www-form-urlencoded or application/json' } },
    { name: 'a body over the limit', type: FORM, body: `html=${'a'.repeat(1024 * 1024 + 10)}`, status: 413, error: { error: 'request body too large (the limit is 1048576 bytes)' } },
  ];
  for (const c of bad) {
    it(`answers ${c.status} for ${c.name} and keeps the template it had`, async () => {
      await putForm(server, MINE);
      const before = await getTemplate(server);
      const res = await server.fetch('/api/template', { method: 'PUT', headers: { 'content-type': c.type }, body: c.body });
      expect(res.status).to.equal(c.status);
      expect(await res.json()).to.deep.equal(c.error);
      expect(await getTemplate(server)).to.deep.equal(before);
    });
  }
});

describe('who may set the template', () => {
  const refusals: [string, Record<string, unknown>, Record<string, string>, string][] = [
    ['no key, where writes need the key', KEYED, {}, KEY_NEEDED],
    ['a wrong key', KEYED, { Authorization: 'token wrong' }, INVALID_KEY],
    ['no key, on a read-only server', {}, {}, KEY_NEEDED],
  ];
  for (const [name, config, headers, error] of refusals) {
    for (const method of ['PUT', 'DELETE']) {
      it(`refuses a ${method} with ${name}, as a save is refused, and keeps the starter`, async () => {
        const server = await startBinServer(config);
        try {
          const res = await server.fetch('/api/template', { method, headers: { 'content-type': FORM, ...headers }, body: 'html=x' });
          expect(res.status).to.equal(403);
          expect(await res.json()).to.deep.equal({ error });
          expect(await server.store.template()).to.equal(undefined);
        } finally {
          await server.close();
        }
      });
    }
  }

  it('takes the key in the Authorization header, as saves do', async () => {
    const server = await startBinServer(KEYED);
    try {
      const res = await putForm(server, MINE, { Authorization: 'token sekrit-key' });
      expect(res.status).to.equal(200);
      expect(await server.store.template()).to.deep.include(MINE);
    } finally {
      await server.close();
    }
  });

  it('shows a private server\'s template at / only to those who may read its bins', async () => {
    const server = await startBinServer({ ...KEYED, api: { allowAnonymousRead: false } });
    try {
      await putForm(server, MINE, { Authorization: 'token sekrit-key' });
      expect((await server.fetch('/api/template')).status).to.equal(403);
      const stranger = await editorData(await server.fetch('/'));
      expect(stranger.panels).to.deep.equal({ html: STARTER, css: '', javascript: '' });
      const owner = await editorData(await server.fetch('/', { headers: { Authorization: 'token sekrit-key' } }));
      expect(owner.panels).to.deep.equal(MINE);
    } finally {
      await server.close();
    }
  });
});

describe('the template across a restart', () => {
  it('is still there when the server opens the same file again', async () => {
    const temp = tempDir();
    try {
      const file = join(temp.dir, 'bins.sqlite');
      const first = await startBinServer(OPEN, file);
      await putForm(first, { ...MINE, settings: JSON.stringify(PROCESSORS) });
      const saved = await getTemplate(first);
      await first.close();
      const second = await startBinServer(OPEN, file);
      try {
        expect(await getTemplate(second)).to.deep.equal(saved);
        expect((await editorData(await second.fetch('/'))).panels).to.deep.equal(MINE);
      } finally {
        await second.close();
      }
    } finally {
      temp.cleanup();
    }
  });
});

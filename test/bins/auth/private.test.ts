import { expect } from 'chai';
import { join } from 'node:path';
import { KEY_NEEDED } from '../../../src/bins/auth/auth.js';
import { startBinServer, type TestBinServer } from '../../helpers/bin-server.js';
import { startServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

const KEY = 'the-private-key';
const PRIVATE = { api: { allowAnonymousRead: false }, ownership: { api_key: KEY } };

type Read = { name: string; path: string; method?: 'GET' | 'POST'; stream?: boolean; body?: string; json?: boolean };

/** Every way to read bin `b` (revision 1 exists); what each answers with access is checked too. */
const reads = (b: string): Read[] => [
  { name: 'output page', path: `/${b}` },
  { name: 'output of a revision', path: `/${b}/1` },
  { name: 'output of latest', path: `/${b}/latest` },
  { name: 'quiet output', path: `/${b}/quiet` },
  { name: 'quiet output of a revision', path: `/${b}/1/quiet` },
  { name: 'js panel', path: `/${b}.js` },
  { name: 'css panel', path: `/${b}.css` },
  { name: 'html panel', path: `/${b}.html` },
  { name: 'panel of a revision', path: `/${b}/1.js` },
  { name: 'source', path: `/${b}/1/source` },
  { name: 'download', path: `/${b}/1/download` },
  { name: 'editor', path: `/${b}/edit` },
  { name: 'editor of a revision', path: `/${b}/1/edit` },
  { name: 'watch page', path: `/${b}/watch` },
  { name: 'embed page', path: `/${b}/embed?html,output` },
  { name: 'embed page of a revision', path: `/${b}/1/embed` },
  // An EventSource cannot show a page: refused streams are answered in the API's JSON shape.
  { name: 'event stream of the output', path: `/${b}`, stream: true, json: true },
  { name: 'event stream of the editor', path: `/${b}/1/edit`, stream: true, json: true },
  { name: 'API read', path: `/api/${b}`, json: true },
  { name: 'API read of a revision', path: `/api/${b}/1`, json: true },
  { name: 'console relay', path: `/api/${b}/console`, method: 'POST', body: '{"records":[]}', json: true },
];
const compile: Read = {
  name: 'compiler',
  path: '/api/compile',
  method: 'POST',
  body: '{"processor":"less","source":"a{}"}',
  json: true,
};

describe('private bins (api.allowAnonymousRead=false with a key)', () => {
  let server: TestBinServer;
  let bin: string;
  let other: string;
  let cookie: string;
  before(async () => {
    server = await startBinServer(PRIVATE);
    const panels = { html: '<p>x</p>', javascript: '', css: '', settings: {} };
    const save = async (id: string) => (await server.store.append(id, () => panels)).bin;
    [bin, other] = [await save('abc'), await save('def')];
    const session = await server.fetch('/api/session', { method: 'POST', headers: { Authorization: `token ${KEY}` } });
    cookie = session.headers.get('set-cookie')!.split(';')[0]!;
  });
  after(() => server.close());

  /** Sends `read` with `headers` (and `query` on its path); a stream is closed once its status is in. */
  type Answer = { status: number; type: string; text: string };

  async function send(read: Read, headers: Record<string, string> = {}, query = ''): Promise<Answer> {
    const controller = new AbortController();
    const res = await server.fetch(read.path + query, {
      method: read.method ?? 'GET',
      body: read.body,
      headers: { ...(read.stream && { accept: 'text/event-stream' }), ...headers },
      signal: controller.signal,
    });
    const type = res.headers.get('content-type') ?? '';
    const text = type.startsWith('text/event-stream') ? '' : await res.text();
    controller.abort();
    return { status: res.status, type, text };
  }

  function expectRefused(answer: Answer, read: Read): void {
    expect(answer.status).to.equal(403);
    if (read.json) expect(JSON.parse(answer.text)).to.deep.equal({ error: KEY_NEEDED });
    else expect(answer.text).to.include(KEY_NEEDED).and.include('name="api_key"');
  }

  for (const read of [...reads('abc'), compile]) {
    const what = `${read.method ?? 'GET'} ${read.path}${read.stream ? ' (event stream)' : ''}`;
    it(`refuses the ${read.name} without the key: ${what}`, async () => {
      expectRefused(await send(read), read);
    });
    it(`serves the ${read.name} with the key in the Authorization header`, async () => {
      const answer = await send(read, { Authorization: `token ${KEY}` });
      expect(answer.status).to.equal(200);
      if (read.stream) expect(answer.type).to.match(/^text\/event-stream/);
    });
    it(`serves the ${read.name} with the session cookie`, async () => {
      expect((await send(read, { cookie })).status).to.equal(200);
    });
  }

  for (const read of reads('abc')) {
    it(`serves the ${read.name} with the bin's read token, and refuses another bin's token`, async () => {
      const page = await (await server.fetch(`/${bin}`, { headers: { cookie } })).text();
      const token = /var token = "([\w-]+)";/.exec(page)![1]!;
      expect((await send(read, {}, `${read.path.includes('?') ? '&' : '?'}token=${token}`)).status).to.equal(200);
      const elsewhere = { ...read, path: read.path.replace(bin, other) };
      expectRefused(await send(elsewhere, {}, `?token=${token}`), read);
    });
  }

  it('marks private answers so that no shared cache keeps them', async () => {
    for (const path of [`/${bin}`, `/api/${bin}`]) {
      const res = await server.fetch(path, { headers: { cookie } });
      expect(res.headers.get('cache-control'), path).to.equal('private, no-store');
    }
  });

  it('says at start that every bin needs the key, and how a browser gives it', async () => {
    const temp = tempDir();
    const env = { SNIPPETKIT_API_ALLOWANONYMOUSREAD: 'false', SNIPPETKIT_OWNERSHIP_API_KEY: KEY };
    const process = await startServerProcess(['serve-bins', '--port', '0', '--data', join(temp.dir, 'b.sqlite')], env);
    try {
      expect(process.banner).to.include(
        'Private: every bin (pages, panels, streams, API) needs the API key; browsers give it once with ?api_key=<key>',
      );
      expect(process.banner).not.to.include(KEY);
    } finally {
      await process.stop();
      temp.cleanup();
    }
  });

  it('refuses an unknown bin with the same 403 as a known one, so refusals tell nothing', async () => {
    expectRefused(await send({ name: 'unknown', path: '/nosuchbin' }), { name: '', path: '' });
    expect(await (await server.fetch('/api/nosuchbin')).json()).to.deep.equal({ error: KEY_NEEDED });
  });

  it('keeps the new-bin editor, its bundle and the health check open', async () => {
    for (const path of ['/', '/static/editor.js', '/status']) {
      expect((await server.fetch(path)).status, path).to.equal(200);
    }
  });

  it('gives an output page its own read token for its stream, console and links, and never the key', async () => {
    const page = await (await server.fetch(`/${bin}/1`, { headers: { cookie } })).text();
    const token = /var token = "([\w-]+)";/.exec(page)![1]!;
    expect(page).to.include(`api/${bin}/console?token=${token}`);
    expect(page).to.include(`${bin}/1/edit?token=${token}`);
    expect(page).not.to.include(KEY);
    expect(page).not.to.include(cookie.split('=')[1]);
  });

  it('gives no token on a server whose reads are open', async () => {
    const open = await startBinServer({ ownership: { api_key: KEY } });
    try {
      await open.store.append('abc', () => ({ html: '<p>x</p>', javascript: '', css: '', settings: {} }));
      const page = await (await open.fetch('/abc')).text();
      expect(page).to.include('var token = null;');
      expect(page).not.to.match(/token=[\w-]+/);
    } finally {
      await open.close();
    }
  });
});

import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { tempDir } from '../../helpers/temp.js';

// `snippetkit serve` (docs/serve.md): the route table, reserved ids, and every check of both servers
// on the one listener, against a real process on an ephemeral port.

const JSON_TYPE = { 'content-type': 'application/json' };
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };

/** A raw request: fetch would not send a Host of our choosing. */
function ask(server: ServerProcess, path: string, host: string) {
  return rawRequest(server.url, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
}

describe('snippetkit serve: one port for the bins and the mocks', function () {
  this.timeout(60_000); // a server process on a loaded machine: seconds to start
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess;
  let bin: string;

  before(async () => {
    temp = tempDir();
    const config = join(temp.dir, 'bins.json');
    writeFileSync(config, JSON.stringify({ api: { allowAnonymousReadWrite: true }, 'max-request-size': '2kb' }));
    server = await startServerProcess([
      'serve', '--port', '0', '--config', config, '--max-body', '1kb',
      '--bin-data', join(temp.dir, 'b.sqlite'), '--mock-data', join(temp.dir, 'm.sqlite'),
    ]);
    const saved = await fetch(`${server.url}/api/save`, { method: 'POST', headers: FORM_TYPE, body: 'html=<p>hello</p>' });
    bin = ((await saved.json()) as { url: string }).url;
    const added = await fetch(`${server.url}/mocks/api/endpoint/add`, {
      method: 'PUT',
      headers: JSON_TYPE,
      body: JSON.stringify({ name: 'users', path: 'users/:id', data: { id: 1 } }),
    });
    expect(added.status).to.equal(201);
  });
  after(async () => {
    await server?.stop();
    temp?.cleanup();
  });

  it('prints both apps in its start-up lines: the bins as serve-bins does, the mock page and the endpoint base', () => {
    const lines = server.stdout().split('\n');
    expect(lines[0]).to.match(new RegExp(`^snippetkit bins on ${server.url}  data .*b\\.sqlite  API open`));
    expect(lines[1]).to.match(new RegExp(`^snippetkit mocks on ${server.url}/mocks/  endpoints at ${server.url}/endpoint/  data .*m\\.sqlite  \\d+ endpoints?$`));
  });

  describe('the route table', () => {
    // [request, status, what the answer must hold]
    const table: [string, number, (res: Response, text: string) => void][] = [
      ['/status', 200, (_res, text) => expect(text).to.equal('OK')],
      ['/api/whoami', 200, (_res, text) =>
        expect(JSON.parse(text)).to.include({ server: 'snippetkit serve', bins: '/', mocks: '/mocks/', endpoints: '/endpoint/' })],
      ['/endpoint/users/7', 200, (_res, text) => expect(JSON.parse(text)).to.deep.equal({ id: 1 })],
      ['/endpoint/nothing', 404, (_res, text) => expect(JSON.parse(text)).to.have.property('success', false)],
      ['/mocks', 302, (res) => expect(res.headers.get('location')).to.equal('/mocks/static/')],
      ['/mocks?x=1', 302, (res) => expect(res.headers.get('location')).to.equal('/mocks/static/')],
      ['/mocks/', 302, (res) => expect(new URL(res.headers.get('location')!, 'http://h/mocks/').pathname).to.equal('/mocks/static/')],
      ['/mocks/static', 302, (res) =>
        expect(new URL(res.headers.get('location')!, 'http://h/mocks/static').pathname).to.equal('/mocks/static/')],
      ['/mocks/static/', 200, (res, text) => {
        expect(res.headers.get('content-type')).to.match(/^text\/html/);
        expect(text).to.match(/<html/i);
      }],
      ['/mocks/api/endpoints', 200, (_res, text) =>
        expect((JSON.parse(text) as { endpoints: { name: string }[] }).endpoints.map((e) => e.name)).to.deep.equal(['users'])],
      ['/mocks/api/nothing', 404, (_res, text) => expect(JSON.parse(text)).to.deep.equal({ success: false, message: 'no route for GET /api/nothing' })],
      ['/mocks/endpoint/users/7', 200, (_res, text) => expect(JSON.parse(text)).to.deep.equal({ id: 1 })],
      ['/api/endpoints', 404, (_res, text) => expect(JSON.parse(text)).to.deep.equal({ error: 'not found' })],
      ['/mocksfoo', 404, (res) => expect(res.headers.get('content-type')).to.match(/^text\/html/)],
      ['/MOCKS', 404, (res) => expect(res.headers.get('content-type')).to.match(/^text\/html/)],
    ];
    for (const [path, status, check] of table) {
      it(`answers GET ${path} with ${status}`, async () => {
        const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
        const text = await res.text();
        expect(res.status, text).to.equal(status);
        check(res, text);
      });
    }

    it('keeps the bin routes where they are: the API, the output page and the editor', async () => {
      const api = await fetch(`${server.url}/api/${bin}/1`);
      expect(((await api.json()) as { html: string }).html).to.equal('<p>hello</p>');
      const page = await fetch(`${server.url}/${bin}/1`);
      expect(await page.text()).to.include('<p>hello</p>');
      const editor = await fetch(`${server.url}/${bin}/1/edit`);
      expect(editor.status).to.equal(200);
    });

    it("serves the endpoints with the mock server's sandbox, so an HTML answer cannot act on the bins' origin", async () => {
      await fetch(`${server.url}/mocks/api/endpoint/page`, {
        method: 'PUT',
        headers: JSON_TYPE,
        body: JSON.stringify({ body: '<script>parent</script>', headers: { 'Content-Type': 'text/html' } }),
      });
      const res = await fetch(`${server.url}/endpoint/page`);
      expect(res.headers.get('content-security-policy')).to.match(/^sandbox /);
      expect(res.headers.get('content-security-policy')).not.to.include('allow-same-origin');
    });
  });

  describe('reserved bin ids', () => {
    for (const word of ['mocks', 'endpoint', 'whoami', 'MOCKS']) {
      it(`refuses a save that claims ${word} with a 400 naming it`, async () => {
        const res = await fetch(`${server.url}/api/${word}/save`, { method: 'POST', headers: FORM_TYPE, body: 'html=x' });
        expect(res.status).to.equal(400);
        expect(await res.json()).to.deep.equal({
          error: `${word.toLowerCase()} is a reserved word, not a bin id: choose another name`,
          field: 'bin',
        });
      });
    }

    it('never makes a reserved word, nor a path the mocks take, of a new bin', async () => {
      const ids = await Promise.all(Array.from({ length: 40 }, async () => {
        const res = await fetch(`${server.url}/api/save`, { method: 'POST', headers: FORM_TYPE, body: 'html=y' });
        return ((await res.json()) as { url: string }).url;
      }));
      for (const id of ids) expect(['mocks', 'endpoint', 'whoami', 'api', 'static']).not.to.include(id);
    });
  });

  describe("both servers' checks on the one listener", () => {
    it('refuses a foreign Host on every route, in a body both clients read', async () => {
      for (const path of ['/status', '/api/whoami', `/api/${bin}`, '/endpoint/users/1', '/mocks/api/endpoints', '/mocks/static/']) {
        const answer = await ask(server, path, 'evil.example');
        expect(answer.status, path).to.equal(403);
        const body = JSON.parse(answer.body) as { error: string; message: string; success: boolean };
        expect(body.success, path).to.equal(false);
        expect(body.error, path).to.equal(body.message);
        expect(body.message).to.include('--allowed-host evil.example');
      }
      expect((await ask(server, '/status', `localhost:${new URL(server.url).port}`)).status).to.equal(200);
    });

    it("keeps the mock management API to the mock page and loopback pages: another page's write is a 403", async () => {
      const res = await fetch(`${server.url}/mocks/api/endpoint/add`, {
        method: 'PUT',
        headers: { ...JSON_TYPE, Origin: 'https://elsewhere.example' },
        body: JSON.stringify({ name: 'evil', data: 1 }),
      });
      expect(res.status).to.equal(403);
      const listed = (await (await fetch(`${server.url}/mocks/api/endpoints`)).json()) as { endpoints: { name: string }[] };
      expect(listed.endpoints.map((e) => e.name)).not.to.include('evil');
    });

    it('lets the mock page, on the bins\' origin, manage endpoints', async () => {
      const res = await fetch(`${server.url}/mocks/api/endpoint/own`, {
        method: 'PUT',
        headers: { ...JSON_TYPE, Origin: server.url },
        body: JSON.stringify({ data: 1 }),
      });
      expect(res.status).to.equal(201);
      expect(res.headers.get('access-control-allow-origin')).to.equal(server.url);
    });

    it('keeps endpoints open to every page, as on the mock server alone', async () => {
      const res = await fetch(`${server.url}/endpoint/users/1`, { headers: { Origin: 'https://elsewhere.example' } });
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    });

    it("keeps the bins' owner policy: another page may not delete a bin", async () => {
      const res = await fetch(`${server.url}/api/${bin}`, { method: 'DELETE', headers: { Origin: 'https://elsewhere.example' } });
      expect(res.status).to.equal(403);
      expect(((await res.json()) as { error: string }).error).to.include('pages on https://elsewhere.example may not use this API');
    });

    it("holds each app to its own body limit: --max-body for the mock API, max-request-size for bin saves", async () => {
      const mock = await fetch(`${server.url}/mocks/api/endpoint/big`, {
        method: 'PUT',
        headers: JSON_TYPE,
        body: JSON.stringify({ data: 'x'.repeat(1500) }),
      });
      expect(mock.status).to.equal(413);
      const bins = await fetch(`${server.url}/api/save`, { method: 'POST', headers: FORM_TYPE, body: `html=${'x'.repeat(1500)}` });
      expect(bins.status).to.equal(200); // 1.5 KB: over the mocks' 1 KB, under the bins' 2 KB
      const binsBig = await fetch(`${server.url}/api/save`, { method: 'POST', headers: FORM_TYPE, body: `html=${'x'.repeat(3000)}` });
      expect(binsBig.status).to.equal(413);
    });
  });
});

describe('snippetkit serve with a private bin server', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess;
  before(async () => {
    temp = tempDir();
    server = await startServerProcess(
      ['serve', '--port', '0', '--bin-data', join(temp.dir, 'b.sqlite'), '--mock-data', join(temp.dir, 'm.sqlite')],
      { SNIPPETKIT_API_ALLOWANONYMOUSREAD: 'false', SNIPPETKIT_OWNERSHIP_API_KEY: 'sekrit' },
    );
  });
  after(async () => {
    await server?.stop();
    temp?.cleanup();
  });

  it("keeps the bins' session cookie from the mocks' request log (and so from --proxy), other cookies kept", async () => {
    const login = await fetch(`${server.url}/?api_key=sekrit`, { redirect: 'manual' });
    const session = login.headers.get('set-cookie')!.split(';')[0]!;
    expect(session).to.match(/^snippetkit_/);
    await fetch(`${server.url}/mocks/api/endpoint/seen`, { method: 'PUT', headers: JSON_TYPE, body: '{"data":1}' });
    await fetch(`${server.url}/endpoint/seen`, { headers: { Cookie: `theme=dark; ${session}` } });
    await fetch(`${server.url}/endpoint/seen`, { headers: { Cookie: session } });
    const log = (await (await fetch(`${server.url}/mocks/api/endpoint/seen/requests`)).json()) as {
      requests: { headers: Record<string, string> }[];
    };
    expect(log.requests.map((r) => r.headers.cookie)).to.deep.equal([undefined, 'theme=dark']);
  });

  it('needs the key for bins, and not for the mocks', async () => {
    const saved = await fetch(`${server.url}/api/save`, {
      method: 'POST',
      headers: { ...FORM_TYPE, Authorization: 'token sekrit' },
      body: 'html=secret',
    });
    const { url } = (await saved.json()) as { url: string };
    expect((await fetch(`${server.url}/api/${url}`)).status).to.equal(403);
    expect((await fetch(`${server.url}/${url}`)).status).to.equal(403);
    const added = await fetch(`${server.url}/mocks/api/endpoint/open`, { method: 'PUT', headers: JSON_TYPE, body: '{"data":[1]}' });
    expect(added.status).to.equal(201);
    expect(await (await fetch(`${server.url}/endpoint/open`)).json()).to.deep.equal([1]);
    expect((await fetch(`${server.url}/mocks/static/`)).status).to.equal(200);
  });
});

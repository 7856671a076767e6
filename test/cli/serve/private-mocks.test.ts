import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, spawnCli, startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

// `snippetkit serve --private-mocks` (docs/serve.md, "Private mocks"): the mock side needs what the bins'
// owner needs, or (endpoints only) the token of an output page its owner opened; a real process, real HTTP.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const REFUSED = {
  success: false,
  message:
    "these mocks are private: send the bin server's API key (Authorization: token KEY, or ?api_key=KEY), or log this " +
    'browser in once by opening /?api_key=KEY (the address snippetkit serve printed at start)',
};
const TOKEN = /"X-Snippetkit-Mock-Token","([^"]+)"/;

describe('snippetkit serve --private-mocks', function () {
  this.timeout(60_000); // a server process and CLI runs: seconds each on a loaded machine
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess;
  // Its own data folder: the key this server makes for itself stays out of other test files' way.
  let env: NodeJS.ProcessEnv;
  let key: string;
  let cookie: string;
  let bin: string;

  const owner = () => ({ Authorization: `token ${key}` });
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers, redirect: 'manual' });
  const asOwner = async (path: string) => (await get(path, owner())).json() as Promise<Json>;

  before(async () => {
    temp = tempDir();
    env = { XDG_DATA_HOME: join(temp.dir, 'data') };
    server = await startServerProcess(
      ['serve', '--port', '0', '--private-mocks', '--bin-data', join(temp.dir, 'b.sqlite'), '--mock-data', join(temp.dir, 'm.sqlite')],
      env,
    );
    key = readFileSync(join(temp.dir, 'data', 'snippetkit', 'api-key'), 'utf8').trim();
    const login = await get(`/?api_key=${key}`);
    expect(login.status).to.equal(303);
    cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const added = await fetch(`${server.url}/mocks/api/endpoint/users`, {
      method: 'PUT',
      headers: { ...owner(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'users', path: 'users/:id', data: { id: 1 } }),
    });
    expect(added.status, await added.clone().text()).to.equal(201);
    const saved = await fetch(`${server.url}/api/save`, {
      method: 'POST',
      headers: { ...owner(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ html: '<p>hi</p>', javascript: "fetch('/endpoint/users/1')" }).toString(),
    });
    bin = ((await saved.json()) as { url: string }).url;
  });
  after(async () => {
    await server?.stop();
    temp?.cleanup();
  });

  it('says in its start-up lines that the mocks are private', () => {
    expect(server.stdout().split('\n')[4]).to.match(/^ {2}mocks private: the page, API and endpoints need the bins' key or their browser session; .* \(12 hours, until a restart\)$/);
  });

  it('refuses an endpoint call without the key with a 401, logs nothing and counts no hit', async () => {
    for (const path of ['/endpoint/users/1', '/endpoint/nothing', '/mocks/endpoint/users/1']) {
      const res = await get(path);
      expect(res.status, path).to.equal(401);
      expect(await res.json()).to.deep.equal(REFUSED);
    }
    const posted = await fetch(`${server.url}/endpoint/users/1`, { method: 'POST', body: 'x'.repeat(100_000) });
    expect(posted.status).to.equal(401);
    expect((await asOwner('/mocks/api/endpoint/users')).hits).to.equal(0);
    expect((await asOwner('/mocks/api/endpoint/users/requests')).requests).to.deep.equal([]);
    expect((await asOwner('/mocks/api/unmatched')).count).to.equal(0);
  });

  const credentials: [string, () => { path: string; headers: Record<string, string> }][] = [
    ['the key header', () => ({ path: '', headers: owner() })],
    ['?api_key=', () => ({ path: `?api_key=${key}`, headers: {} })],
    ['the session cookie', () => ({ path: '', headers: { Cookie: cookie } })],
  ];
  for (const [label, given] of credentials) {
    it(`serves endpoints and the management API with ${label}`, async () => {
      const { path, headers } = given();
      const endpoint = await get(`/endpoint/users/1${path}`, headers);
      expect([endpoint.status, await endpoint.json()]).to.deep.equal([200, { id: 1 }]);
      const api = await get(`/mocks/api/endpoints${path}`, headers);
      expect(api.status).to.equal(200);
      expect(((await api.json()) as Json).endpoints.map((e: Json) => e.name)).to.deep.equal(['users']);
      const page = await get(`/mocks/static/${path}`, headers);
      expect(page.status).to.equal(200);
    });
  }

  it('refuses the management API and the page without the key, and a wrong key', async () => {
    for (const headers of [{}, { Authorization: 'token wrong-key-0123456789' }, { Cookie: 'snippetkit_abc=forged' }] as Record<string, string>[]) {
      for (const path of ['/mocks/api/endpoints', '/mocks/static/', '/mocks/api/events']) {
        const res = await get(path, headers);
        expect(res.status, path).to.equal(401);
      }
    }
  });

  it('keeps the key out of the request log: the header and ?api_key= are taken out, the rest stays', async () => {
    await fetch(`${server.url}/mocks/api/endpoint/users/requests`, { method: 'DELETE', headers: owner() });
    await get(`/endpoint/users/2?a=1&api_key=${key}&b=2`, { 'X-Other': 'kept' });
    await get('/endpoint/users/3', { ...owner(), Cookie: `${cookie}; theirs=1` });
    const logged = (await asOwner('/mocks/api/endpoint/users/requests')).requests as Json[];
    expect(logged.map((r) => r.url)).to.deep.equal(['/endpoint/users/3', '/endpoint/users/2?a=1&b=2']);
    expect(logged[0]!.headers).not.to.have.property('authorization');
    expect(logged[0]!.headers.cookie).to.equal('theirs=1');
    expect(logged[1]!.headers['x-other']).to.equal('kept');
    expect(JSON.stringify(logged)).not.to.include(key);
  });

  it('gives the owner’s output page a token for its own endpoint calls, and an anonymous reader’s none', async () => {
    const page = await get(`/${bin}/1`, { Cookie: cookie });
    expect(page.headers.get('cache-control')).to.equal('private, no-store');
    const token = TOKEN.exec(await page.text())?.[1];
    expect(token).to.match(/^\d+\.[A-Za-z0-9_-]{43}$/);
    // twice: the second time the page is kept, and the fast path must not hand the owner's to anyone
    for (let i = 0; i < 2; i++) {
      const anonymous = await get(`/${bin}/1`);
      expect(anonymous.status).to.equal(200);
      expect(await anonymous.text()).not.to.include('X-Snippetkit-Mock-Token');
    }
    const latest = await get(`/${bin}`, { Cookie: cookie });
    expect(TOKEN.exec(await latest.text())?.[1]).to.equal(token);
  });

  it('serves /endpoint/ to the page’s token for its claim, and nothing else to it', async () => {
    const token = TOKEN.exec(await (await get(`/${bin}/1`, { Cookie: cookie })).text())![1]!;
    const headers = (claim: string) => ({ 'X-Snippetkit-Bin': claim, 'X-Snippetkit-Mock-Token': token });
    const served = await get('/endpoint/users/1', headers(`${bin}/1`));
    expect([served.status, await served.json()]).to.deep.equal([200, { id: 1 }]);
    const logged = ((await asOwner('/mocks/api/endpoint/users/requests')).requests as Json[])[0]!;
    expect(logged.bin).to.equal(`${bin}/1`);
    expect(logged.headers).not.to.have.property('x-snippetkit-mock-token');
    for (const path of ['/mocks/api/endpoints', '/mocks/endpoint/users/1', '/mocks/static/']) {
      expect((await get(path, headers(`${bin}/1`))).status, path).to.equal(401);
    }
    for (const claim of [`${bin}/2`, `${bin}x/1`]) {
      expect((await get('/endpoint/users/1', headers(claim))).status, claim).to.equal(401);
    }
  });

  it('answers a bin page’s CORS preflight without credentials, and counts and logs nothing for it', async () => {
    const before = (await asOwner('/mocks/api/endpoint/users')).hits as number;
    const res = await fetch(`${server.url}/endpoint/users/1`, {
      method: 'OPTIONS',
      headers: { Origin: 'null', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-snippetkit-bin,x-snippetkit-mock-token' },
    });
    expect(res.status).to.equal(204);
    expect(res.headers.get('access-control-allow-headers')).to.equal('x-snippetkit-bin,x-snippetkit-mock-token');
    expect((await asOwner('/mocks/api/endpoint/users')).hits).to.equal(before);
    expect((await fetch(`${server.url}/endpoint/users/1`, { method: 'OPTIONS' })).status).to.equal(401);
  });

  it('lets the mock commands use the key of the local server, and says to pass the key when they have none', async () => {
    const listed = await runCli(['mock', 'list', '--json', '--server', server.url], env);
    expect(listed.code, listed.stderr).to.equal(0);
    expect((JSON.parse(listed.stdout) as Json[]).map((e) => e.name)).to.deep.equal(['users']);
    const logged = await runCli(['mock', 'log', 'users', '--server', server.url], env);
    expect(logged.code, logged.stderr).to.equal(0);
    // another user's data folder: no key file, so the command has no key to send
    const elsewhere = { XDG_DATA_HOME: join(temp.dir, 'elsewhere') };
    const refused = await runCli(['mock', 'list', '--server', server.url], elsewhere);
    expect(refused.code).to.equal(5);
    expect(refused.stderr).to.equal(
      `snippetkit: the mock server needs an API key (${REFUSED.message}): its mocks are private (serve --private-mocks): ` +
        "pass the bin server's key, SNIPPETKIT_API_KEY=KEY (or save's --api-key)\n",
    );
    const given = await runCli(['mock', 'list', '--server', server.url], { ...elsewhere, SNIPPETKIT_API_KEY: key });
    expect(given.code, given.stderr).to.equal(0);
  });

  it('follows a request log (an event stream) with the key of the local server', async () => {
    const following = spawnCli(['mock', 'log', 'users', '--follow', '--server', server.url], env);
    try {
      await get('/endpoint/users/41', owner());
      await following.waitForStdout((out) => out.includes('/endpoint/users/41'));
      await get('/endpoint/users/42', owner());
      await following.waitForStdout((out) => out.includes('/endpoint/users/42'));
    } finally {
      following.child.kill();
    }
  });

  it('saves a bin --with-mocks with the key it already uses for the bins', async () => {
    writeFileSync(join(temp.dir, 'sketch.html'), '<p>sketch</p>');
    writeFileSync(join(temp.dir, 'sketch.js'), "fetch('/endpoint/users/1');\n");
    const saved = await runCli(['save', join(temp.dir, 'sketch.html'), '--with-mocks', '--server', server.url], env);
    expect(saved.code, saved.stderr).to.equal(0);
    expect(saved.stderr).to.include('with the mocks users');
  });
});

describe('snippetkit serve --private-mocks: where it cannot be', function () {
  this.timeout(60_000);

  it('is a usage error without a key for the bins, saying why', async () => {
    for (const [args, env] of [
      [['--private-mocks', '--no-generated-key'], {}],
      [['--no-generated-key'], { SNIPPETKIT_PRIVATE_MOCKS: 'true' }],
      [['--private-mocks'], { SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true' }],
    ] as [string[], NodeJS.ProcessEnv][]) {
      const result = await runCli(['serve', '--port', '0', ...args], env);
      expect(result.code, result.stderr).to.equal(2);
      expect(result.stderr).to.match(/^snippetkit: --private-mocks needs a key for the bins to ask for, and this server has none \(.*\); set SNIPPETKIT_OWNERSHIP_API_KEY=<key>\n$/);
    }
  });

  it('refuses a SNIPPETKIT_PRIVATE_MOCKS that is no switch', async () => {
    const result = await runCli(['serve', '--port', '0'], { SNIPPETKIT_PRIVATE_MOCKS: 'maybe' });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.equal('snippetkit: SNIPPETKIT_PRIVATE_MOCKS=maybe (environment) is not true or false\n');
  });

  it('is no flag of serve-mocks, whose mocks have no key', async () => {
    const result = await runCli(['serve-mocks', '--port', '0', '--private-mocks']);
    expect(result.code).to.equal(2);
    expect(result.stderr).to.include("unknown option '--private-mocks'");
  });
});

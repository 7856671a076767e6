import { expect } from 'chai';
import { request } from 'node:http';
import { addEndpoint, startMockServer, type TestMockServer } from './server.js';

/** A GET with the path sent exactly as written (fetch would normalise the dots away). */
function rawGet(url: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    request({ hostname, port, path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('/static and /', () => {
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer();
  });
  after(() => server.close());

  for (const path of ['/', '/static']) {
    it(`redirects ${path} to static/ with a relative Location, so a proxy's path prefix is kept`, async () => {
      const res = await server.fetch(path, { redirect: 'manual' });
      expect(res.status).to.equal(302);
      expect(res.headers.get('location')).to.equal('static/');
    });
  }

  it('serves the endpoint list page at /static/', async () => {
    const res = await server.fetch('/static/');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    expect(await res.text()).to.include('<title>snippetkit mocks</title>');
  });

  it('uses only relative URLs in the page and loads nothing from another host', async () => {
    const html = await (await server.fetch('/static/')).text();
    expect(html).to.not.match(/(src|href)="\//);
    expect(html).to.not.match(/https?:\/\//);
    const script = await server.fetch('/static/page.js');
    expect(script.status).to.equal(200);
    expect(script.headers.get('content-type')).to.match(/javascript/);
    // The bundle carries CodeMirror; it must not import or fetch anything from elsewhere.
    const code = await script.text();
    expect(code).to.not.match(/import\s*\(?\s*["']https?:/);
    expect(code).to.not.match(/unpkg|jsdelivr|cdnjs|esm\.sh/);
    expect(code).to.include("new URL(\"../\",document.baseURI)");
  });

  it('serves the stylesheet next to the page', async () => {
    const res = await server.fetch('/static/style.css');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/css/);
  });

  for (const path of ['/static/../package.json', '/static/%2e%2e/package.json', '/static/..%2f..%2fetc%2fpasswd']) {
    it(`never leaves the assets folder for ${path}`, async () => {
      const res = await rawGet(server.url, path);
      expect(res.status).to.be.oneOf([400, 404]);
      expect(res.body).to.not.include('"dependencies"');
      expect(JSON.parse(res.body).success).to.equal(false);
    });
  }

  it('answers a missing asset with a 404 in the error shape', async () => {
    const res = await server.fetch('/static/missing.js');
    expect(res.status).to.equal(404);
    expect(await res.json()).to.deep.equal({ success: false, message: 'no file at /static/missing.js' });
  });
});

describe('behind a reverse proxy', () => {
  const forwarded = {
    'x-forwarded-proto': 'https',
    'x-forwarded-host': 'mocks.example.test',
    'x-forwarded-prefix': '/tools/mocks',
  };

  for (const [trustProxy, url] of [
    [true, 'https://mocks.example.test/tools/mocks/endpoint/a'],
    [false, null],
  ] as const) {
    it(`${trustProxy ? 'honours' : 'ignores'} X-Forwarded-* in endpoint URLs with --trust-proxy ${trustProxy ? 'on' : 'off'}`, async () => {
      const server = await startMockServer({ config: { trustProxy } });
      try {
        await addEndpoint(server, { name: 'a', data: 1 });
        const { endpoints } = await (await server.fetch('/api/endpoints', { headers: forwarded })).json();
        expect(endpoints[0].url).to.equal(url ?? `${server.url}/endpoint/a`);
      } finally {
        await server.close();
      }
    });
  }
});

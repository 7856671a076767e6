import { expect } from 'chai';
import { EDITOR_CSP, framing, OUTPUT_SANDBOX } from '../../../src/bins/config/security-headers.js';
import { OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';

const OUTPUT_CSP = `${OUTPUT_SANDBOX}; frame-ancestors 'self'`;

// Every route that answers the bin's own code, and every editor route.
const OUTPUT_ROUTES: ((bin: string) => string)[] = [
  (b) => `/${b}`,
  (b) => `/${b}/1`,
  (b) => `/${b}/latest`,
  (b) => `/${b}/quiet`,
  (b) => `/${b}/1/quiet`,
  (b) => `/${b}.html`,
  (b) => `/${b}/1.js`,
  (b) => `/${b}/latest.css`,
  (b) => `/${b}/1/source`,
  (b) => `/${b}/1/download`,
];
const EDITOR_ROUTES: ((bin: string) => string)[] = [
  () => '/',
  (b) => `/${b}/edit`,
  (b) => `/${b}/1/edit`,
  (b) => `/${b}/watch`,
];

describe('page headers: isolation', () => {
  let server: TestBinServer;
  let bin: string;
  before(async () => {
    server = await startBinServer(OPEN);
    const saved = await server.postForm('/api/save', { html: '<p>hi</p>', css: 'p{}', javascript: 'hi()' });
    bin = (await saved.json()).url;
  });
  after(() => server.close());

  for (const path of OUTPUT_ROUTES) {
    it(`${path(':bin')} is sandboxed and may be framed by its own origin only`, async () => {
      const res = await server.fetch(path(bin));
      expect(res.status).to.equal(200);
      expect([
        res.headers.get('content-security-policy'),
        res.headers.get('x-frame-options'),
        res.headers.get('x-content-type-options'),
      ]).to.deep.equal([OUTPUT_CSP, 'SAMEORIGIN', 'nosniff']);
    });
  }

  for (const path of EDITOR_ROUTES) {
    it(`${path(':bin')} sends the editor's policy and may be framed by its own origin only`, async () => {
      const res = await server.fetch(path(bin));
      expect(res.status).to.equal(200);
      expect([res.headers.get('content-security-policy'), res.headers.get('x-frame-options')]).to.deep.equal([
        EDITOR_CSP,
        'SAMEORIGIN',
      ]);
    });
  }

  it('the editor policy allows no plugins, no foreign <base> and no foreign framing', () => {
    expect(EDITOR_CSP.split('; ').slice(-3)).to.deep.equal([
      "object-src 'none'",
      "base-uri 'self'",
      "frame-ancestors 'self'",
    ]);
  });
});

describe('page headers: output.frameAncestors', () => {
  it('lets the configured origins frame output pages, without X-Frame-Options', async () => {
    const server = await startBinServer({ ...OPEN, output: { frameAncestors: "'self' https://blog.example" } });
    try {
      const bin = (await (await server.postForm('/api/save', { html: 'x' })).json()).url;
      const res = await server.fetch(`/${bin}`);
      expect([res.headers.get('content-security-policy'), res.headers.get('x-frame-options')]).to.deep.equal([
        `${OUTPUT_SANDBOX}; frame-ancestors 'self' https://blog.example`,
        null,
      ]);
    } finally {
      await server.close();
    }
  });

  const cases: [string, { csp: string; xFrameOptions: string | undefined }][] = [
    ["'self'", { csp: "frame-ancestors 'self'", xFrameOptions: 'SAMEORIGIN' }],
    ["'none'", { csp: "frame-ancestors 'none'", xFrameOptions: 'DENY' }],
    ['*', { csp: 'frame-ancestors *', xFrameOptions: undefined }],
    [
      ' https://a.example  https://b.example ',
      { csp: 'frame-ancestors https://a.example  https://b.example', xFrameOptions: undefined },
    ],
  ];
  for (const [value, expected] of cases) {
    it(`turns ${JSON.stringify(value)} into ${JSON.stringify(expected)}`, () => {
      expect(framing(value)).to.deep.equal(expected);
    });
  }

  for (const value of ['', "'self'; script-src *", "'self', *", "'self'\r\nSet-Cookie: a=b"]) {
    it(`refuses ${JSON.stringify(value)}, which is not one source list`, () => {
      const message = `output.frameAncestors must be a CSP source list such as "'self'" (got ${JSON.stringify(value)})`;
      expect(() => framing(value)).to.throw(message);
    });
  }
});

import { expect } from 'chai';
import { OUTPUT_SANDBOX } from '../../../src/bins/config/security-headers.js';
import type { Settings } from '../../../src/bins/engines/records.js';
import { OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';

const OUTPUT_CSP = `${OUTPUT_SANDBOX}; frame-ancestors 'self'`;
const STATUS_ERROR = {
  error: 'settings.statusCode must be an integer from 200–203, 207–299 or 400–599',
  field: 'settings.statusCode',
};

// The bin's output: every route answers with its status and headers.
const OUTPUT_ROUTES: ((bin: string) => string)[] = [
  (b) => `/${b}`,
  (b) => `/${b}/1`,
  (b) => `/${b}/latest`,
  (b) => `/${b}/quiet`,
  (b) => `/${b}/1/quiet`,
  (b) => `/${b}?quiet`,
  (b) => `/${b}?live`,
  (b) => `/${b}.html`,
  (b) => `/${b}/1.html`,
  (b) => `/${b}.js`,
  (b) => `/${b}/1.css`,
];
// Our views of the bin: always 200, without its headers.
const VIEW_ROUTES: ((bin: string) => string)[] = [(b) => `/${b}/1/source`, (b) => `/${b}/1/download`, (b) => `/${b}/1/embed`];

// Headers a bin may not set, each with a value it would use against us.
const REFUSED: [string, string][] = [
  ['Set-Cookie', 'session=stolen; Path=/'],
  ['Content-Security-Policy', "default-src *"],
  ['Content-Security-Policy-Report-Only', "default-src 'none'"],
  ['X-Frame-Options', 'ALLOWALL'],
  ['X-Content-Type-Options', 'sniff'],
  ['Cross-Origin-Opener-Policy', 'unsafe-none'],
  ['Cross-Origin-Embedder-Policy', 'unsafe-none'],
  ['Cross-Origin-Resource-Policy', 'cross-origin'],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['Content-Length', '3'],
  ['Content-Encoding', 'gzip'],
  ['Connection', 'close'],
  ['Location', 'https://evil.example/'],
  ['Refresh', '0; url=https://evil.example/'],
  ['Cache-Control', 'public, max-age=99'],
  ['Vary', 'Cookie'],
  ['ETag', '"forged"'],
  ['Clear-Site-Data', '"storage"'],
  ['WWW-Authenticate', 'Basic realm="log in"'],
  ['Access-Control-Allow-Credentials', 'true'],
  ['NEL', '{"report_to":"x","max_age":1}'],
  ['Link', '<https://evil.example/x.css>; rel=stylesheet'],
  ['X-Accel-Redirect', '/etc/passwd'],
  ['X-Sendfile', '/etc/passwd'],
];

describe('a bin\'s settings.statusCode and settings.headers', () => {
  let server: TestBinServer;
  let bin: string;
  const save = (path: string, settings: unknown) =>
    server.postForm(path, { html: '<p>hi</p>', css: 'p{}/* hi */', javascript: 'hi()', settings: JSON.stringify(settings) });
  before(async () => {
    server = await startBinServer(OPEN);
    const settings = { statusCode: 404, headers: { 'X-Mock': 'yes', 'Access-Control-Allow-Origin': '*' } };
    bin = (await (await save('/api/save', settings)).json()).url;
  });
  after(() => server.close());

  describe('on the output', () => {
    for (const path of OUTPUT_ROUTES) {
      it(`${path(':bin')} answers with the bin's status and its body`, async () => {
        const res = await server.fetch(path(bin));
        expect(res.status).to.equal(404);
        expect(await res.text()).to.include('hi');
      });

      it(`${path(':bin')} sends the bin's headers`, async () => {
        const res = await server.fetch(path(bin));
        expect([res.headers.get('x-mock'), res.headers.get('access-control-allow-origin')]).to.deep.equal(['yes', '*']);
      });

      it(`${path(':bin')} keeps its security headers`, async () => {
        const res = await server.fetch(path(bin));
        expect([
          res.headers.get('content-security-policy'),
          res.headers.get('x-frame-options'),
          res.headers.get('x-content-type-options'),
        ]).to.deep.equal([OUTPUT_CSP, 'SAMEORIGIN', 'nosniff']);
      });
    }

    for (const path of VIEW_ROUTES) {
      it(`${path(':bin')} is 200 without the bin's headers`, async () => {
        const res = await server.fetch(path(bin));
        expect([res.status, res.headers.get('x-mock')]).to.deep.equal([200, null]);
      });
    }

    it('sends a bin\'s Content-Type in place of the panel\'s', async () => {
      const saved = await (await save('/api/save', { headers: { 'Content-Type': 'application/json' } })).json();
      const res = await server.fetch(`/${saved.url}.js`);
      expect(res.headers.get('content-type')).to.equal('application/json');
    });

    it('sends no ETag with a bin\'s own status, so a conditional GET still gets that status and the page', async () => {
      const res = await server.fetch(`/${bin}/1`, { headers: { 'If-None-Match': '*', 'Cache-Control': 'max-age=0' } });
      expect([res.status, res.headers.get('etag')]).to.deep.equal([404, null]);
      expect(await res.text()).to.include('hi');
    });

    it('answers a conditional GET of a bin with headers and no status with 304', async () => {
      const saved = await (await save('/api/save', { headers: { 'X-Mock': 'yes' } })).json();
      const first = await server.fetch(`/${saved.url}/1`);
      const etag = first.headers.get('etag')!;
      const again = await server.fetch(`/${saved.url}/1`, { headers: { 'If-None-Match': etag, 'Cache-Control': 'max-age=0' } });
      expect([first.status, again.status]).to.deep.equal([200, 304]);
    });

    it('clears the status of the previous revision with a null', async () => {
      const cleared = await save(`/api/${bin}/save`, { statusCode: null });
      const res = await server.fetch(`/${bin}/${(await cleared.json()).snapshot}`);
      expect([res.status, res.headers.get('x-mock')]).to.deep.equal([200, 'yes']);
    });
  });

  describe('stored before these checks', () => {
    const stored = (settings: Settings) =>
      server.store.append(undefined, () => ({ html: '<p>old</p>', css: '', javascript: '', settings }));

    for (const statusCode of [302, 204, 101, 700, '404', 200.5]) {
      it(`ignores a statusCode of ${JSON.stringify(statusCode)}`, async () => {
        const old = await stored({ statusCode });
        expect((await server.fetch(`/${old.bin}`)).status).to.equal(200);
      });
    }

    for (const [name, value] of REFUSED) {
      it(`leaves out ${name}`, async () => {
        const old = await stored({ headers: { [name]: value, 'X-Kept': 'yes' } });
        const res = await server.fetch(`/${old.bin}`);
        expect(res.headers.get('x-kept')).to.equal('yes');
        expect(res.headers.get(name)).to.not.equal(value);
      });
    }
  });

  describe('refused at save, nothing stored', () => {
    const refused = async (settings: unknown, body: unknown) => {
      const res = await save('/api/fresh/save', settings);
      expect([res.status, await res.json()]).to.deep.equal([400, body]);
      expect((await server.fetch('/api/fresh')).status).to.equal(404);
    };
    const headersError = (message: string) => ({ error: `settings.headers: ${message}`, field: 'settings.headers' });

    for (const statusCode of [100, 199, 204, 205, 206, 301, 304, 399, 600, 200.5, '404', true]) {
      it(`refuses a statusCode of ${JSON.stringify(statusCode)}`, async () => {
        await refused({ statusCode }, STATUS_ERROR);
      });
    }

    for (const [name, value] of REFUSED) {
      it(`refuses ${name}`, async () => {
        await refused({ headers: { [name]: value } }, headersError(`${name} is not a header a bin may set`));
      });
    }

    const badHeaders: [string, unknown, string][] = [
      ['headers that are not an object', ['X-A', 'b'], 'must be an object of header names to strings'],
      ['a value that is not a string', { 'X-A': 1 }, 'the value of X-A must be a string'],
      ['a name that is not a token', { 'X A': 'b' }, '"X A" is not a header name'],
      ['a value with a line break', { 'X-A': 'b\r\nSet-Cookie: a=b' }, 'the value of X-A must be printable ASCII on one line'],
      ['a value with a NUL', { 'X-A': 'b\u0000' }, 'the value of X-A must be printable ASCII on one line'],
      ['a header over 1 KB', { 'X-A': 'b'.repeat(1022) }, 'X-A is over 1024 bytes'],
      ['a name given twice', { 'X-A': 'b', 'x-a': 'c' }, 'x-a is given twice'],
      [
        'more than 20 headers',
        Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])),
        'more than 20 headers',
      ],
    ];
    for (const [what, headers, message] of badHeaders) {
      it(`refuses ${what}`, async () => {
        await refused({ headers }, headersError(message));
      });
    }

    it('refuses a save whose headers, merged over the previous revision\'s, are more than 20', async () => {
      const headers = (from: number) => Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`X-H${from + i}`, 'v']));
      const first = await (await save('/api/save', { headers: headers(0) })).json();
      await save(`/api/${first.url}/save`, { headers: headers(10) });
      const res = await save(`/api/${first.url}/save`, { headers: { 'X-One-More': 'v' } });
      expect([res.status, await res.json()]).to.deep.equal([400, headersError('more than 20 headers')]);
      expect((await (await server.fetch(`/api/${first.url}`)).json()).snapshot).to.equal(2);
    });
  });
});

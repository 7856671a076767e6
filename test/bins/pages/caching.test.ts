import { expect } from 'chai';
import { OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';

/**
 * A browser's revalidation. Node's fetch adds `Cache-Control: no-cache` to a request with If-None-Match unless
 * one is given, and a server must then answer in full.
 */
const ifNoneMatch = (etag: string) => ({ 'If-None-Match': etag, 'Cache-Control': 'max-age=0' });

describe('ETags, 304s and Cache-Control on pages and static files', () => {
  let server: TestBinServer;
  let bin: string;
  before(async () => {
    server = await startBinServer(OPEN);
    bin = (await (await server.postForm('/api/save', { html: '<p>one</p>', javascript: 'let a = 1;', css: 'p{}' })).json()).url;
  });
  after(() => server.close());

  const IMMUTABLE = 'public, max-age=31536000, immutable';
  const numbered: [string, (b: string) => string][] = [
    ['output of a revision', (b) => `/${b}/1`],
    ['quiet output of a revision', (b) => `/${b}/1/quiet`],
    ['a panel of a revision', (b) => `/${b}/1.js`],
    ['source of a revision', (b) => `/${b}/1/source`],
    ['embed of a revision', (b) => `/${b}/1/embed`],
  ];
  for (const [what, path] of numbered) {
    it(`sends the ${what} as immutable, with an ETag that a conditional GET or HEAD answers with 304`, async () => {
      const first = await server.fetch(path(bin));
      expect(first.status).to.equal(200);
      expect(first.headers.get('cache-control')).to.equal(IMMUTABLE);
      const etag = first.headers.get('etag')!;
      expect(etag).to.match(/^"[\w-]{27}"$/);
      for (const given of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        for (const method of ['GET', 'HEAD']) {
          const again = await server.fetch(path(bin), { method, headers: ifNoneMatch(given) });
          expect(again.status, `${method} ${given}`).to.equal(304);
          expect(await again.text()).to.equal('');
        }
      }
      expect((await server.fetch(path(bin), { headers: ifNoneMatch('"other"') })).status).to.equal(200);
    });
  }

  it('revalidates the latest revision, whose ETag changes with a new save', async () => {
    const own = (await (await server.postForm('/api/save', { html: '<p>v1</p>' })).json()).url;
    const first = await server.fetch(`/${own}`);
    expect(first.headers.get('cache-control')).to.equal('no-cache');
    const etag = first.headers.get('etag')!;
    expect((await server.fetch(`/${own}`, { headers: ifNoneMatch(etag) })).status).to.equal(304);
    await server.postForm(`/api/${own}/save`, { html: '<p>v2</p>' });
    const changed = await server.fetch(`/${own}`, { headers: ifNoneMatch(etag) });
    expect(changed.status).to.equal(200);
    expect(await changed.text()).to.include('<p>v2</p>');
    expect((await server.fetch(`/${own}/latest`)).headers.get('cache-control')).to.equal('no-cache');
  });

  it('does not keep ?live output, which follows the editor', async () => {
    expect((await server.fetch(`/${bin}/1?live`)).headers.get('cache-control')).to.equal('no-cache');
  });

  it('sends no ETag with errors', async () => {
    const missing = await server.fetch(`/${bin}/9`);
    expect(missing.status).to.equal(404);
    expect(missing.headers.get('etag')).to.equal(null);
  });

  it('answers a static file by its size and time, 304 when unchanged', async () => {
    const first = await server.fetch('/static/embed.js');
    const etag = first.headers.get('etag')!;
    expect(etag).to.match(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    const again = await server.fetch('/static/embed.js', { headers: ifNoneMatch(etag) });
    expect(again.status).to.equal(304);
    expect(await again.text()).to.equal('');
  });

  // The pages name each bundle by a hash of its bytes, so that address may be kept for a year.
  const bundles: [string, string, string][] = [
    ['the editor', '/', 'editor.js'],
    ['the editor', '/', 'editor.css'],
    ['the embed page', '/BIN/embed', 'embed-page.js'],
  ];
  for (const [page, path, file] of bundles) {
    it(`keeps ${file}, as ${page} names it by its hash, for a year, and revalidates it under any other version`, async () => {
      const html = await (await server.fetch(path.replace('BIN', bin))).text();
      const address = new RegExp(`static/${file.replace('.', '\\.')}\\?v=[\\w-]{16}(?=")`).exec(html)?.[0];
      expect(address, `${page} names ${file}`).to.be.a('string');
      const kept = await server.fetch(`/${address}`);
      expect(kept.status).to.equal(200);
      expect(kept.headers.get('cache-control')).to.equal(IMMUTABLE);
      const stale = await server.fetch(`/${address!.replace(/=.*/, '=old')}`);
      expect(stale.status).to.equal(200);
      expect(stale.headers.get('cache-control')).to.not.include('immutable');
    });
  }

  it('answers an API read with an ETag, 304 while it is the same revision, and in full after a new save', async () => {
    const { url } = await (await server.postForm('/api/save', { html: '<p>api one</p>' })).json();
    const first = await server.fetch(`/api/${url}`);
    const etag = first.headers.get('etag')!;
    expect(etag).to.match(/^"[\w-]+\.1\.[0-9a-z]+"$/);
    const again = await server.fetch(`/api/${url}`, { headers: ifNoneMatch(etag) });
    expect(again.status).to.equal(304);
    expect(await again.text()).to.equal('');
    expect((await server.fetch(`/api/${url}/1`, { headers: ifNoneMatch(etag) })).status).to.equal(304);
    await server.postForm(`/api/${url}/save`, { html: '<p>api two</p>' });
    const changed = await server.fetch(`/api/${url}`, { headers: ifNoneMatch(etag) });
    expect(changed.status).to.equal(200);
    expect((await changed.json()).snapshot).to.equal(2);
  });
});

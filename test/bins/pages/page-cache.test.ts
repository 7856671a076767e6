import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { createPageCache, type Rendered } from '../../../src/bins/pages/page-cache.js';
import { KEYED, OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';

const KEY = { Authorization: `token ${KEYED.ownership.api_key}` };
const BIN = 'kept';

describe('rendered output pages kept in memory', () => {
  // The same bin on two servers: one keeps pages (the default), one renders every read.
  let kept: TestBinServer;
  let fresh: TestBinServer;
  before(async () => {
    kept = await startBinServer({ ...OPEN, ...KEYED });
    fresh = await startBinServer({ ...OPEN, ...KEYED, cache: { pagesMB: 0 } });
    for (const server of [kept, fresh]) {
      for (const html of ['<p>one</p>', '<p>two</p>']) {
        const res = await server.postForm(`/api/${BIN}/save`, { html, javascript: 'for (;;) {}' }, KEY);
        expect(res.status).to.equal(200);
      }
    }
  });
  after(() => Promise.all([kept.close(), fresh.close()]));

  const page = async (server: TestBinServer, path: string) => {
    const res = await server.fetch(path);
    return { status: res.status, etag: res.headers.get('etag'), body: await res.text() };
  };

  // Addresses of one revision whose bytes differ: quiet or not, the root the page's links start from, the edit
  // link to the latest or to the revision. Each is read after all the others, so a shared entry would show.
  const VARIANTS = [`/${BIN}`, `/${BIN}/latest`, `/${BIN}/2`, `/${BIN}/quiet`, `/${BIN}/2/quiet`, `/${BIN}.html`, `/${BIN}/2/source`];
  for (const path of VARIANTS) {
    it(`serves ${path} kept exactly as a fresh render, whatever was read before`, async () => {
      for (const other of VARIANTS) await page(kept, other);
      expect(await page(kept, path)).to.deep.equal(await page(fresh, path));
    });
  }

  it('gives the latest and a numbered revision the same content with their own edit links', async () => {
    const [latest, numbered] = [await page(kept, `/${BIN}`), await page(kept, `/${BIN}/2`)];
    expect([latest.body.includes('two'), numbered.body.includes('two')]).to.deep.equal([true, true]);
    expect(latest.body).to.not.equal(numbered.body);
  });

  it('serves a new save at /:bin at once', async () => {
    const server = await startBinServer(OPEN);
    try {
      await server.postForm('/api/moving/save', { html: '<p>first</p>' });
      expect((await page(server, '/moving')).body).to.include('first');
      await server.postForm('/api/moving/save', { html: '<p>second</p>' });
      expect((await page(server, '/moving')).body).to.include('second').and.not.include('first');
    } finally {
      await server.close();
    }
  });

  it('stops serving a deleted latest revision and falls back to the one before', async () => {
    const server = await startBinServer({ ...OPEN, ...KEYED });
    try {
      await server.postForm('/api/gone/save', { html: '<p>first</p>' }, KEY);
      await server.postForm('/api/gone/save', { html: '<p>second</p>' }, KEY);
      expect((await page(server, '/gone')).body).to.include('second');
      expect((await page(server, '/gone/2')).status).to.equal(200);
      expect((await server.fetch('/api/gone', { method: 'DELETE', headers: KEY })).status).to.equal(200);
      expect((await page(server, '/gone')).body).to.include('first').and.not.include('second');
      expect((await page(server, '/gone/2')).status).to.equal(404);
    } finally {
      await server.close();
    }
  });

  it('keeps private pages apart per bin, each with its own read token', async () => {
    const server = await startBinServer({ ...KEYED, api: { allowAnonymousRead: false } });
    try {
      const tokens: string[] = [];
      for (const bin of ['first', 'second']) {
        await server.postForm(`/api/${bin}/save`, { html: '<p>same</p>' }, KEY);
        const body = (await (await server.fetch(`/${bin}`, { headers: KEY })).text());
        tokens.push(/token=([\w-]+)/.exec(body)?.[1] ?? '');
      }
      expect(tokens[0]).to.have.length.greaterThan(0);
      expect(tokens[0]).to.not.equal(tokens[1]);
    } finally {
      await server.close();
    }
  });
});

describe('createPageCache', () => {
  /** A render that counts its calls. */
  const counted = (rendered: Rendered) => {
    const render = async () => {
      render.calls++;
      return rendered;
    };
    render.calls = 0;
    return render;
  };

  it('renders a page once and keeps it with the ETag of its bytes', async () => {
    const cache = createPageCache(1024);
    const render = counted({ html: '<p>é</p>', transient: false });
    await cache.get('a', render);
    const page = await cache.get('a', render);
    const etag = createHash('sha1').update('<p>é</p>').digest('base64url');
    expect([render.calls, page.body.toString(), page.etag]).to.deep.equal([1, '<p>é</p>', etag]);
  });

  it('shares one render among reads of a key at once', async () => {
    const cache = createPageCache(1024);
    const render = counted({ html: 'x', transient: false });
    await Promise.all([cache.get('a', render), cache.get('a', render), cache.get('a', render)]);
    expect(render.calls).to.equal(1);
  });

  it('does not keep a page whose compile failed for a passing reason', async () => {
    const cache = createPageCache(1024);
    const render = counted({ html: 'timed out', transient: true });
    await cache.get('a', render);
    await cache.get('a', render);
    expect([render.calls, cache.peek('a')]).to.deep.equal([2, undefined]);
  });

  it('keeps nothing with a size of 0', async () => {
    const cache = createPageCache(0);
    await cache.get('a', counted({ html: 'x', transient: false }));
    expect(cache.peek('a')).to.equal(undefined);
  });

  it('lets the oldest page go beyond its size in bytes', async () => {
    const cache = createPageCache(400); // two of these pages and their keys
    await cache.get('a', counted({ html: 'a'.repeat(100), transient: false }));
    await cache.get('b', counted({ html: 'b'.repeat(100), transient: false }));
    await cache.get('c', counted({ html: 'c'.repeat(100), transient: false }));
    expect(['a', 'b', 'c'].map((key) => cache.peek(key) !== undefined)).to.deep.equal([false, true, true]);
  });
});

import { expect } from 'chai';
import { listen, type RunningServer } from '../../src/server/listen.js';
import { OPEN, startBinServer, type TestBinServer } from '../helpers/bin-server.js';
import { openPage, type TestPage } from './browser.js';
import { preview, replaceCode } from './editor-page.js';

/**
 * Another site (another port is another origin): a page framing the address in ?src, a script a bin
 * might load from a CDN, and JSON a bin might fetch.
 */
function otherSite(): Promise<RunningServer> {
  return listen(
    (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/frame') {
        res.setHeader('content-type', 'text/html');
        res.end(`<!DOCTYPE html><iframe id="framed" src="${url.searchParams.get('src')}"></iframe>`);
      } else if (url.pathname === '/lib.js') {
        res.setHeader('content-type', 'text/javascript');
        res.end("window.fromLibrary = 'library';");
      } else {
        res.setHeader('content-type', 'application/json');
        res.setHeader('access-control-allow-origin', '*');
        res.end('{"answer":42}');
      }
    },
    0,
    '127.0.0.1',
  );
}

describe('isolation of output pages and the editor, in Chromium', () => {
  let server: TestBinServer;
  let other: RunningServer;
  let bin: string;
  let t: TestPage;
  before(async () => {
    [server, other] = await Promise.all([startBinServer(OPEN), otherSite()]);
    bin = (await (await server.postForm('/api/save', { html: '<p id="shown">bin output</p>' })).json()).url;
  });
  after(() => Promise.all([server.close(), other.close()]));
  beforeEach(async () => {
    t = await openPage();
  });
  afterEach(() => t.close());

  /** Opens the other site's page framing `src`; resolves once the frame has answered and loaded. */
  async function frameFromOtherSite(src: string) {
    const answered = t.page.waitForResponse(src);
    await t.page.goto(`${other.url}/frame?src=${encodeURIComponent(src)}`);
    await answered;
    const frame = (await t.page.locator('#framed').elementHandle())!.contentFrame();
    return (await frame)!;
  }

  it('keeps /:bin out of a frame on another site', async () => {
    const frame = await frameFromOtherSite(`${server.url}/${bin}`);
    await frame.waitForLoadState();
    // Chromium shows its own error document in place of a page whose frame-ancestors refuse the parent.
    expect(frame.url()).to.equal('chrome-error://chromewebdata/');
    expect(await frame.locator('#shown').count()).to.equal(0);
  });

  it('lets the editor\'s own origin frame /:bin', async () => {
    await t.page.goto(`${server.url}/`);
    await t.page.evaluate((src) => {
      const frame = document.createElement('iframe');
      frame.id = 'framed';
      frame.src = src;
      document.body.append(frame);
    }, `${server.url}/${bin}`);
    await t.page.frameLocator('#framed').locator('#shown', { hasText: 'bin output' }).waitFor();
  });

  it('runs inline scripts, another site\'s script and fetches in the editor\'s preview', async () => {
    await t.page.goto(`${server.url}/`);
    await replaceCode(
      t.page,
      'html',
      `<script src="${other.url}/lib.js"></script><p id="out"></p>` +
        `<script>fetch(${JSON.stringify(`${other.url}/data`)}).then(function (r) { return r.json(); })` +
        ".then(function (d) { document.getElementById('out').textContent = window.fromLibrary + ' ' + d.answer; });" +
        '</script>',
    );
    await preview(t.page).locator('#out', { hasText: 'library 42' }).waitFor();
    expect(t.errors).to.deep.equal([]);
  });
});

describe('isolation with output.frameAncestors configured, in Chromium', () => {
  it('lets the configured site frame /:bin', async () => {
    const other = await otherSite();
    const server = await startBinServer({ ...OPEN, output: { frameAncestors: other.url } });
    const t = await openPage();
    try {
      const bin = (await (await server.postForm('/api/save', { html: '<p id="shown">bin output</p>' })).json()).url;
      await t.page.goto(`${other.url}/frame?src=${encodeURIComponent(`${server.url}/${bin}`)}`);
      await t.page.frameLocator('#framed').locator('#shown', { hasText: 'bin output' }).waitFor();
    } finally {
      await t.close();
      await Promise.all([server.close(), other.close()]);
    }
  });
});

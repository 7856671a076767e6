import { expect } from 'chai';
import { OPEN, startBinServer, type TestBinServer } from '../helpers/bin-server.js';
import { addEndpoint, startMockServer, type TestMockServer } from '../mocks/server.js';
import { openPage, type TestPage } from './browser.js';

/** The page's icon as the browser loads it: its width and height, or an error. */
function icon(t: TestPage): Promise<{ width: number; height: number } | string> {
  return t.page.evaluate(async () => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) return 'no icon link';
    const image = new Image();
    image.src = link.href;
    try {
      await image.decode();
    } catch (err) {
      return `the icon did not load: ${(err as Error).message}`;
    }
    return { width: image.naturalWidth, height: image.naturalHeight };
  });
}

describe('page icons and titles in Chromium', function () {
  this.timeout(30_000);
  let bins: TestBinServer;
  let mocks: TestMockServer;
  let t: TestPage;
  before(async () => {
    [bins, mocks] = await Promise.all([startBinServer(OPEN), startMockServer()]);
    await bins.postForm('/api/iconic/save', { html: '<p>x</p>' });
    await addEndpoint(mocks, { name: 'users', data: [] });
  });
  after(async () => {
    await Promise.all([bins.close(), mocks.close()]);
  });
  beforeEach(async () => {
    t = await openPage();
  });
  afterEach(() => t.close());

  for (const [page, path, title] of [
    ['the editor', '/', 'snippetkit'],
    ["a bin's editor", '/iconic/1/edit', 'iconic/1 · snippetkit'],
    ['the list', '/list', 'My bins · snippetkit'],
    ['an embed', '/iconic/1/embed', 'iconic/1 · snippetkit'],
    ['an error page', '/no-such-bin/edit', '404 Not found · snippetkit'],
  ]) {
    it(`gives ${page} an icon that loads under its policy, and a title`, async () => {
      await t.page.goto(`${bins.url}${path}`);
      expect(await icon(t)).to.deep.equal({ width: 32, height: 32 });
      if (title) expect(await t.page.title()).to.equal(title);
    });
  }

  it('gives the mock page an icon, and a title naming what it shows', async () => {
    await t.page.goto(`${mocks.url}/static/`);
    expect(await icon(t)).to.deep.equal({ width: 32, height: 32 });
    expect(await t.page.title()).to.equal('snippetkit mocks');
    await t.page.evaluate(() => (location.hash = '#endpoint/users'));
    await t.page.waitForFunction(() => document.title === 'users · snippetkit mocks');
    await t.page.evaluate(() => (location.hash = '#new'));
    await t.page.waitForFunction(() => document.title === 'New endpoint · snippetkit mocks');
  });
});

import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPEN, startBinServer, type TestBinServer } from '../helpers/bin-server.js';
import { usePage } from './browser.js';

/** A page on another origin (another port) that embeds `bin` both ways: an iframe, and JS Bin's link form. */
async function foreignSite(server: TestBinServer, bin: string): Promise<{ url: string; server: Server }> {
  const embed = `${server.url}/${bin}/embed`;
  const page = `<!DOCTYPE html><html><head><title>blog</title></head><body>
    <iframe id="framed" src="${embed}?js,console,output" style="width:800px;height:300px"></iframe>
    <a class="jsbin-embed" data-height="200" href="${embed}?html,output">my bin</a>
    <script src="${server.url}/static/embed.js"></script>
    <a class="jsbin-embed" href="${server.url}/${bin}">not an embed</a>
  </body></html>`;
  const site = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return { url: `http://localhost:${(site.address() as AddressInfo).port}/`, server: site };
}

describe('embed pages framed by another site, in Chromium', () => {
  let server: TestBinServer;
  let bin: string;
  const t = usePage();
  before(async () => {
    server = await startBinServer(OPEN);
    const javascript = "document.body.append('ran:' + (2 * 21)); console.log('hello from the bin');";
    bin = (await (await server.postForm('/api/save', { html: '<body></body>', javascript })).json()).url;
  });
  after(() => server.close());

  it('renders the output inside the frame and lists its console in the console panel', async () => {
    const site = await foreignSite(server, bin);
    try {
      await t.page.goto(site.url);
      const embed = t.page.frameLocator('#framed');
      await embed.frameLocator('section[data-pane="output"] iframe').locator('body').getByText('ran:42').waitFor();
      await embed.getByRole('tab', { name: 'Console' }).click();
      await embed.locator('#console-log li').getByText('hello from the bin').waitFor();
      expect(await embed.locator('section[data-pane="javascript"] code').textContent()).to.include("console.log('hello");
    } finally {
      site.server.close();
    }
  });

  it('lists what the output logged before the embed page\'s own script had run', async () => {
    // The page's bundle is held back until the output has run and logged: the console must still show it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await t.page.route('**/static/embed-page.js', async (route) => {
      await held;
      await route.continue();
    });
    const site = await foreignSite(server, bin);
    try {
      await t.page.goto(site.url, { waitUntil: 'commit' });
      const embed = t.page.frameLocator('#framed');
      await embed.frameLocator('section[data-pane="output"] iframe').locator('body').getByText('ran:42').waitFor();
      release();
      // In the console's panel, which is not the tab shown: attached to the page is what counts here.
      await embed.locator('#console-log li').getByText('hello from the bin').waitFor({ state: 'attached' });
    } finally {
      release();
      site.server.close();
    }
  });

  it('turns JS Bin\'s embed links into frames of the embed page, and leaves other links alone', async () => {
    const site = await foreignSite(server, bin);
    try {
      await t.page.goto(site.url);
      const frame = t.page.locator('iframe.snippetkit-embed');
      await frame.waitFor();
      expect(await frame.getAttribute('src')).to.equal(`${server.url}/${bin}/embed?html,output`);
      expect(await frame.evaluate((el) => (el as HTMLElement).clientHeight)).to.equal(200);
      await t.page.frameLocator('iframe.snippetkit-embed').frameLocator('iframe').getByText('ran:42').waitFor();
      expect(await t.page.locator('a.jsbin-embed').innerText()).to.equal('not an embed');
    } finally {
      site.server.close();
    }
  });
});

describe('the share box, in Chromium', () => {
  let server: TestBinServer;
  const t = usePage();
  before(async () => {
    server = await startBinServer(OPEN);
  });
  after(() => server.close());

  it('offers embed code and links for the panes open now, following the pane buttons', async () => {
    await t.page.goto(server.url + '/');
    await t.page.click('#save');
    await t.page.locator('#share').waitFor();
    const [, bin] = /^\/(\w+)\/1\/edit$/.exec(new URL(t.page.url()).pathname)!;
    const value = (id: string) => t.page.inputValue(`#${id}`);
    const base = `${server.url}/${bin}/1`;
    expect(await value('share-edit')).to.equal(`${base}/edit?html,css,js,console,output`);
    await t.page.click('button[data-toggle="css"]');
    await t.page.click('button[data-toggle="console"]');
    await t.page.waitForFunction(() => !(document.getElementById('share-edit') as HTMLInputElement).value.includes('css'));
    expect(await value('share-edit')).to.equal(`${base}/edit?html,js,output`);
    expect(await value('share-embed')).to.equal(
      `<iframe src="${base}/embed?html,js,output" title="snippetkit" style="width:100%;height:300px;border:1px solid #ddd"></iframe>`,
    );
    expect(await value('share-embed-link')).to.equal(
      `<a class="jsbin-embed" href="${base}/embed?html,js,output">snippetkit</a><script src="${server.url}/static/embed.js"></script>`,
    );
  });
});

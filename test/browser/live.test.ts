import { expect } from 'chai';
import { OPEN, startBinServer, type TestBinServer } from '../helpers/bin-server.js';
import { openPage, type TestPage } from './browser.js';
import { preview, replaceCode } from './editor-page.js';

describe('live sharing, remote rendering and debugging, in Chromium', () => {
  let server: TestBinServer;
  let editor: TestPage;
  let remote: TestPage;
  before(async () => {
    server = await startBinServer(OPEN);
  });
  after(() => server.close());
  beforeEach(async () => {
    // Two contexts: the laptop's editor and a phone showing the output.
    [editor, remote] = await Promise.all([openPage(), openPage()]);
  });
  afterEach(() => Promise.all([editor.close(), remote.close()]));

  async function saveBin(html: string, css = '', javascript = ''): Promise<string> {
    return (await (await server.postForm('/api/save', { html, css, javascript })).json()).url;
  }

  it('reloads an open /:bin/latest with the new revision when the editor saves', async () => {
    const bin = await saveBin('<h1>first</h1>');
    await remote.page.goto(`${server.url}/${bin}/latest`);
    await editor.page.goto(`${server.url}/${bin}/1/edit`);
    await editor.page.locator('#watchers', { hasText: '1 watching' }).waitFor();
    await replaceCode(editor.page, 'html', '<h1>second</h1>');
    await editor.page.click('#save');
    await editor.page.waitForURL(/\/2\/edit$/);
    await remote.page.locator('h1', { hasText: 'second' }).waitFor();
    expect(remote.errors).to.deep.equal([]);
  });

  it('applies css typed in the editor in place, and shows html typed there after a reload', async () => {
    const bin = await saveBin('<p>text</p>', 'p { color: rgb(0, 0, 255); }');
    await remote.page.goto(`${server.url}/${bin}`);
    await remote.page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await editor.page.goto(`${server.url}/${bin}/1/edit`);
    await editor.page.locator('#watchers', { hasText: '1 watching' }).waitFor();
    await replaceCode(editor.page, 'css', 'p { color: rgb(255, 0, 0); }');
    await remote.page.waitForFunction(() => getComputedStyle(document.querySelector('p')!).color === 'rgb(255, 0, 0)');
    expect(await remote.page.evaluate(() => (window as unknown as { marker?: number }).marker)).to.equal(1);
    await replaceCode(editor.page, 'html', '<p>typed live</p>');
    await remote.page.locator('p', { hasText: 'typed live' }).waitFor();
    // Still only revision 1: live changes are not saved.
    expect((await server.store.get(bin))?.rev).to.equal(1);
  });

  it('shows a fetch made in the preview in the console pane, with its status', async () => {
    await editor.page.goto(server.url + '/');
    await replaceCode(editor.page, 'javascript', `fetch(${JSON.stringify(server.url + '/api/nosuchbin')}).then(function (r) { console.log('done', r.status); });`);
    const line = editor.page.locator('#console-log li.network');
    await line.waitFor();
    expect(await line.innerText()).to.match(new RegExp(`^GET ${server.url}/api/nosuchbin 404 · \\d+ ms · 21 B$`));
    await editor.page.locator('#console-log li', { hasText: 'done 404' }).waitFor();
  });

  it('shows what an output page on another device logs and fetches in the editor following it', async () => {
    const bin = await saveBin('<p>phone</p>', '', `console.log('from the phone'); fetch(${JSON.stringify(server.url + '/api/' + 'nosuchbin')});`);
    await editor.page.goto(`${server.url}/${bin}/1/edit`);
    await editor.page.locator('#watchers', { hasText: '0 watching' }).waitFor();
    await remote.page.goto(`${server.url}/${bin}`);
    await editor.page.locator('#console-log li.remote', { hasText: '[remote] from the phone' }).waitFor();
    await editor.page.locator('#console-log li.remote.network', { hasText: '/api/nosuchbin 404' }).waitFor();
  });

  it('follows every change read-only on /:bin/watch', async () => {
    const bin = await saveBin('<p>start</p>');
    await remote.page.goto(`${server.url}/${bin}/watch`);
    await editor.page.goto(`${server.url}/${bin}/1/edit`);
    await editor.page.locator('#watchers', { hasText: '1 watching' }).waitFor();
    await editor.page.selectOption('#processor-html', 'markdown');
    await replaceCode(editor.page, 'html', '## watched');
    await preview(remote.page).locator('h2', { hasText: 'watched' }).waitFor();
    expect(await remote.page.inputValue('#processor-html')).to.equal('markdown');
    expect(await remote.page.locator('#code-html .cm-content').getAttribute('data-language')).to.equal('markdown');
    expect(await remote.page.locator('#save').isHidden()).to.equal(true);
  });
});

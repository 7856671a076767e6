import { expect } from 'chai';
import type { TestBinServer } from '../helpers/bin-server.js';
import type { TestPage } from './browser.js';
import { preview, replaceCode, withEditor } from './editor-page.js';

const ENDLESS = [
  "document.body.append('before');",
  'while (true) {}',
  "var b = document.createElement('button'); b.textContent = 'click'; b.onclick = () => b.textContent = 'clicked';",
  'document.body.append(b);',
].join('\n');

const EXIT = 'Exiting potential infinite loop at line 2. To disable loop protection: add "// noprotect" to your code';

describe('loop protection, in Chromium', () => {
  let server: TestBinServer;
  let t: TestPage;
  withEditor((s) => (server = s), (p) => (t = p));

  it('breaks a while (true) {} in the preview, names its line in the console, and runs what follows', async () => {
    await t.page.goto(server.url + '/');
    await replaceCode(t.page, 'html', '<body></body>');
    await replaceCode(t.page, 'javascript', ENDLESS);
    const button = preview(t.page).locator('button');
    await button.click();
    await preview(t.page).getByText('clicked').waitFor();
    await t.page.locator('#console-log li', { hasText: EXIT }).waitFor();
    // The editor was never frozen: it still takes typing.
    await replaceCode(t.page, 'css', 'body { color: rgb(1, 2, 3); }');
    expect(await t.page.locator('#code-css .cm-content').innerText()).to.include('rgb(1, 2, 3)');
  });

  it('breaks it on the output page too, which stays usable', async () => {
    const bin = (await (await server.postForm('/api/save', { html: '<body></body>', javascript: ENDLESS })).json()).url;
    const warnings: string[] = [];
    t.page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await t.page.goto(`${server.url}/${bin}/1`);
    await t.page.locator('button').click();
    await t.page.getByText('clicked').waitFor();
    expect(warnings).to.include(EXIT);
  });

  it('leaves the loop alone with // noprotect', async () => {
    const javascript = '// noprotect\nvar n = 0; while (n < 5) n++; document.body.append("n=" + n);';
    const bin = (await (await server.postForm('/api/save', { html: '<body></body>', javascript })).json()).url;
    const page = await (await server.fetch(`/${bin}`)).text();
    expect(page).to.include('var n = 0; while (n < 5) n++;').and.not.include('__snippetkitLoop');
    await t.page.goto(`${server.url}/${bin}`);
    await t.page.getByText('n=5').waitFor();
  });
});

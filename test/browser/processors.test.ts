import { expect } from 'chai';
import type { TestBinServer } from '../helpers/bin-server.js';
import type { TestPage } from './browser.js';
import { preview, replaceCode, withEditor } from './editor-page.js';

describe('preprocessors in the editor, in Chromium', () => {
  let server: TestBinServer;
  let t: TestPage;
  withEditor((s) => (server = s), (p) => (t = p));

  it('shows Markdown in the html pane as rendered HTML, and saves the choice', async () => {
    await t.page.goto(server.url + '/');
    await t.page.selectOption('#processor-html', 'markdown');
    await replaceCode(t.page, 'html', '# Big *news*');
    await preview(t.page).locator('h1 em', { hasText: 'news' }).waitFor();
    await t.page.click('#save');
    await t.page.waitForURL(/\/1\/edit$/);
    const bin = new URL(t.page.url()).pathname.split('/')[1]!;
    const saved = await server.store.get(bin, 1);
    expect(saved?.settings).to.deep.equal({ processors: { html: 'markdown', css: 'css', javascript: 'javascript' } });
    expect(saved?.html).to.equal('# Big *news*');
    // Reopened, the editor starts from the saved choice.
    await t.page.reload();
    expect(await t.page.inputValue('#processor-html')).to.equal('markdown');
  });

  it('shows a compile error in the preview with its line and column', async () => {
    await t.page.goto(server.url + '/');
    await t.page.selectOption('#processor-javascript', 'coffeescript');
    await replaceCode(t.page, 'javascript', 'x = (');
    const box = preview(t.page).locator('#snippetkit-errors');
    await box.waitFor();
    expect(await box.innerText()).to.equal('CoffeeScript error on line 1, column 5: missing )');
  });
});

import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestBinServer } from '../helpers/bin-server.js';
import type { TestPage } from './browser.js';
import { withEditor, type Pane } from './editor-page.js';

/** The language CodeMirror edits a pane in (it names it on the content element). */
function languageOf(page: Page, pane: Pane): Promise<string | null> {
  return page.locator(`#code-${pane} .cm-content`).getAttribute('data-language');
}

describe('editor modes follow the preprocessor, in Chromium', () => {
  let server: TestBinServer;
  let t: TestPage;
  withEditor((s) => (server = s), (p) => (t = p));

  // The language each is edited as: SCSS in CodeMirror's Sass grammar, JSX in its TSX one.
  const cases: [Pane, string, string?][] = [
    ['html', 'markdown'],
    ['html', 'pug'],
    ['css', 'less'],
    ['css', 'scss', 'sass'],
    ['css', 'stylus'],
    ['javascript', 'coffeescript'],
    ['javascript', 'typescript'],
    ['javascript', 'jsx', 'typescript'],
  ];
  for (const [pane, processor, language = processor] of cases) {
    it(`edits the ${pane} pane as ${processor} once ${processor} is chosen, and as ${pane} again after`, async () => {
      await t.page.goto(server.url + '/');
      expect(await languageOf(t.page, pane)).to.equal(pane);
      await t.page.selectOption(`#processor-${pane}`, processor);
      expect(await languageOf(t.page, pane)).to.equal(language);
      await t.page.selectOption(`#processor-${pane}`, pane);
      expect(await languageOf(t.page, pane)).to.equal(pane);
    });
  }

  it('opens a bin saved with preprocessors in their languages', async () => {
    const settings = JSON.stringify({ processors: { html: 'pug', css: 'less', javascript: 'typescript' } });
    const bin = (await (await server.postForm('/api/save', { html: 'p hi', settings })).json()).url;
    await t.page.goto(`${server.url}/${bin}/edit`);
    const languages: (string | null)[] = [];
    for (const pane of ['html', 'css', 'javascript'] as const) languages.push(await languageOf(t.page, pane));
    expect(languages).to.deep.equal(['pug', 'less', 'typescript']);
    expect(t.errors).to.deep.equal([]);
  });
});

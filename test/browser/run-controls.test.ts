import { expect } from 'chai';
import type { TestBinServer } from '../helpers/bin-server.js';
import type { TestPage } from './browser.js';
import { preview, replaceCode, withEditor } from './editor-page.js';

describe('run controls and the console prompt, in Chromium', () => {
  let server: TestBinServer;
  let t: TestPage;
  withEditor((s) => (server = s), (p) => (t = p));

  const consoleLines = () => t.page.locator('#console-log li').allInnerTexts();

  it('with Auto-run JS off, updates HTML live but runs the JavaScript only on Run with JS or Ctrl+Enter', async () => {
    await t.page.goto(server.url + '/');
    await t.page.uncheck('#autorun');
    await replaceCode(t.page, 'javascript', "document.body.append('js ran ' + (window.runs = (window.runs || 0) + 1));");
    await replaceCode(t.page, 'html', '<body><h1>live html</h1></body>');
    await preview(t.page).getByText('live html').waitFor();
    expect(await preview(t.page).locator('body').innerText()).to.not.include('js ran');
    await t.page.click('#run');
    await preview(t.page).getByText('js ran 1').waitFor();
    await t.page.locator('#code-html .cm-content').click();
    await t.page.keyboard.press('ControlOrMeta+Enter');
    await preview(t.page).getByText('js ran 1').waitFor(); // a fresh page: the count starts again
    // Ctrl+Enter inserted no line in the editor.
    expect(await t.page.locator('#code-html .cm-content').innerText()).to.equal('<body><h1>live html</h1></body>');
    // The choice is kept in this browser.
    await t.page.reload();
    expect(await t.page.isChecked('#autorun')).to.equal(false);
    await preview(t.page).getByText('live html').waitFor();
    expect(await preview(t.page).locator('body').innerText()).to.not.include('js ran');
  });

  it('evaluates an expression in the preview and prints it and its result, with Up and Down for history', async () => {
    await t.page.goto(server.url + '/');
    await replaceCode(t.page, 'javascript', "var answer = 6 * 7; document.body.append('ready');");
    // The preview has rendered this code (and cleared the console doing so) before anything is asked.
    await preview(t.page).getByText('ready').waitFor();
    const prompt = t.page.getByLabel('Evaluate in the output');
    await expectAnswer(prompt, 'answer + 1', '43');
    await expectAnswer(prompt, 'document.title = "set from the prompt"', 'set from the prompt');
    await expectAnswer(prompt, 'nosuchname', 'ReferenceError: nosuchname is not defined');
    await prompt.press('ArrowUp');
    expect(await prompt.inputValue()).to.equal('nosuchname');
    await prompt.press('ArrowUp');
    await prompt.press('ArrowUp');
    expect(await prompt.inputValue()).to.equal('answer + 1');
    await prompt.press('ArrowDown');
    expect(await prompt.inputValue()).to.equal('document.title = "set from the prompt"');
    // Ctrl+L clears the console.
    await t.page.keyboard.press('ControlOrMeta+L');
    await t.page.waitForFunction(() => document.querySelectorAll('#console-log li').length === 0);
  });

  async function expectAnswer(prompt: ReturnType<TestPage['page']['getByLabel']>, code: string, answer: string) {
    const before = (await consoleLines()).length;
    await prompt.fill(code);
    await prompt.press('Enter');
    // Two new lines, the code and its answer. Not the first line holding the answer's text: the echo of
    // `document.title = "x"` holds "x" too, and came first.
    await t.page.locator('#console-log li').nth(before + 1).waitFor();
    const lines = await consoleLines();
    expect(lines.slice(-2)).to.deep.equal([code, answer]);
  }
});

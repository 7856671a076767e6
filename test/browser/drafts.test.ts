import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { TestBinServer } from '../helpers/bin-server.js';
import type { TestPage } from './browser.js';
import { preview, readCode, replaceCode, withEditor } from './editor-page.js';

/** What the editor keeps for `key` in localStorage, parsed. */
async function stored(page: Page, key: string): Promise<any> {
  return JSON.parse((await page.evaluate((k) => localStorage.getItem(k), `snippetkit:${key}`)) ?? 'null');
}

/** The preprocessor menus and the pane languages, html, css, javascript. */
async function choices(page: Page): Promise<string[]> {
  const out: string[] = [];
  for (const pane of ['html', 'css', 'javascript']) out.push(await page.inputValue(`#processor-${pane}`));
  for (const pane of ['html', 'css', 'javascript']) {
    out.push((await page.locator(`#code-${pane} .cm-content`).getAttribute('data-language')) ?? '');
  }
  return out;
}

describe('drafts keep the preprocessor choice, in Chromium', () => {
  let server: TestBinServer;
  let t: TestPage;
  withEditor((s) => (server = s), (p) => (t = p));

  async function savedBin(): Promise<string> {
    const settings = JSON.stringify({ processors: { html: 'markdown' } });
    return (await (await server.postForm('/api/save', { html: '# saved', settings })).json()).url;
  }

  it('restores unsaved code with its preprocessor after a reload', async () => {
    await t.page.goto(server.url + '/');
    await t.page.selectOption('#processor-html', 'markdown');
    await replaceCode(t.page, 'html', '# *draft*');
    await t.page.waitForFunction(() => localStorage.getItem('snippetkit:draft:new')?.includes('draft') === true);
    await t.page.reload();
    expect(await choices(t.page)).to.deep.equal(['markdown', 'css', 'javascript', 'markdown', 'css', 'javascript']);
    expect(await readCode(t.page, 'html')).to.equal('# *draft*');
    await preview(t.page).locator('h1 em', { hasText: 'draft' }).waitFor();
  });

  it('keeps a draft when only the preprocessor changed', async () => {
    const bin = await savedBin();
    await t.page.goto(`${server.url}/${bin}/1/edit`);
    await t.page.selectOption('#processor-css', 'less');
    await t.page.waitForFunction((key) => localStorage.getItem(key) !== null, `snippetkit:draft:${bin}/1`);
    expect((await stored(t.page, `draft:${bin}/1`)).processors).to.deep.equal({
      html: 'markdown',
      css: 'less',
      javascript: 'javascript',
    });
    await t.page.reload();
    expect(await choices(t.page)).to.deep.equal(['markdown', 'less', 'javascript', 'markdown', 'less', 'javascript']);
    const status = await t.page.locator('#status').innerText();
    expect(status).to.match(/^Restored your unsaved changes from .+\. Discard them$/);
  });

  it('drops the draft once the preprocessor is set back to the saved one', async () => {
    const bin = await savedBin();
    await t.page.goto(`${server.url}/${bin}/1/edit`);
    await t.page.selectOption('#processor-css', 'less');
    await t.page.waitForFunction((key) => localStorage.getItem(key) !== null, `snippetkit:draft:${bin}/1`);
    await t.page.selectOption('#processor-css', 'css');
    await t.page.waitForFunction((key) => localStorage.getItem(key) === null, `snippetkit:draft:${bin}/1`);
  });

  it('goes back to the saved code and preprocessors with "Discard them"', async () => {
    const bin = await savedBin();
    await t.page.goto(`${server.url}/${bin}/1/edit`);
    await t.page.selectOption('#processor-html', 'pug');
    await replaceCode(t.page, 'html', 'p pugged');
    const key = `snippetkit:draft:${bin}/1`;
    await t.page.waitForFunction((k) => localStorage.getItem(k)?.includes('pugged') === true, key);
    await t.page.reload();
    await t.page.locator('#status button', { hasText: 'Discard them' }).click();
    expect(await choices(t.page)).to.deep.equal(['markdown', 'css', 'javascript', 'markdown', 'css', 'javascript']);
    expect(await readCode(t.page, 'html')).to.equal('# saved');
    expect(await stored(t.page, `draft:${bin}/1`)).to.equal(null);
  });

  it('restores a draft kept before preprocessors were recorded with the saved bin\'s preprocessors', async () => {
    const bin = await savedBin();
    await t.page.goto(`${server.url}/`);
    const old = { html: '# older draft', css: '', javascript: '', kept: '2024-01-01T00:00:00.000Z' };
    const entry = [`snippetkit:draft:${bin}/1`, JSON.stringify(old)];
    await t.page.evaluate(([key, value]) => localStorage.setItem(key!, value!), entry);
    await t.page.goto(`${server.url}/${bin}/1/edit`);
    expect(await readCode(t.page, 'html')).to.equal('# older draft');
    expect(await choices(t.page)).to.deep.equal(['markdown', 'css', 'javascript', 'markdown', 'css', 'javascript']);
  });
});

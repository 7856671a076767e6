import { expect } from 'chai';
import type axe from 'axe-core';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestBinServer } from '../helpers/bin-server.js';
import type { TestPage } from './browser.js';
import { replaceCode, withEditor } from './editor-page.js';

declare global {
  interface Window {
    axe: typeof axe;
  }
}

const AXE_SOURCE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');

describe('the editor with the keyboard and axe-core, in Chromium', () => {
  let server: TestBinServer;
  let t: TestPage;
  withEditor((s) => (server = s), (p) => (t = p));

  /** axe-core's serious and critical findings on the page as it is now, one line each. */
  async function seriousViolations(): Promise<string[]> {
    await t.page.addScriptTag({ content: AXE_SOURCE });
    // Not into frames: the preview holds the user's own code, whatever it is.
    const results = await t.page.evaluate(() => window.axe.run(document, { iframes: false, resultTypes: ['violations'] }));
    return results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  }

  it('has no serious accessibility violations on a new bin', async () => {
    await t.page.goto(server.url + '/');
    await t.page.locator('#code-html .cm-content').waitFor();
    expect(await seriousViolations()).to.deep.equal([]);
  });

  it("has no serious accessibility violations on a saved bin's editor with its share box", async () => {
    const bin = (await (await server.postForm('/api/save', { html: '<p>saved</p>' })).json()).url;
    await t.page.goto(`${server.url}/${bin}/1/edit`);
    await t.page.locator('#share').waitFor();
    expect(await seriousViolations()).to.deep.equal([]);
  });

  // The toggle of a hidden pane and CodeMirror's colours for tag names (on the active line's tint) once fell short.
  it('has no serious accessibility violations with a pane hidden and HTML highlighted', async () => {
    await t.page.goto(server.url + '/');
    await t.page.click('button[data-toggle="css"]');
    await replaceCode(t.page, 'html', '<section>\n  <article>text</article>\n</section>');
    expect(await seriousViolations()).to.deep.equal([]);
  });

  it('has no serious accessibility violations with the shortcut list open', async () => {
    await t.page.goto(server.url + '/');
    await t.page.keyboard.press('?');
    await t.page.locator('#shortcuts-dialog').waitFor();
    expect(await seriousViolations()).to.deep.equal([]);
  });

  it('has no serious accessibility violations with the library list open', async () => {
    await t.page.goto(server.url + '/');
    await t.page.click('#add-library');
    await t.page.locator('#library-menu').waitFor();
    expect(await seriousViolations()).to.deep.equal([]);
  });

  for (const width of [1400, 900]) {
    it(`has no serious accessibility violations with the library list searched, an entry chosen, at ${width} px`, async () => {
      await t.page.setViewportSize({ width, height: 900 });
      await t.page.goto(server.url + '/');
      await t.page.click('#add-library');
      await t.page.waitForFunction(() => document.activeElement?.id === 'library-search');
      await t.page.keyboard.type('d');
      await t.page.keyboard.press('ArrowDown');
      await t.page.locator('#library-list [aria-selected="true"]').waitFor();
      expect(await seriousViolations()).to.deep.equal([]);
    });
  }

  it('has no serious accessibility violations with a refused address in the library search', async () => {
    await t.page.goto(server.url + '/');
    await t.page.click('#add-library');
    await t.page.locator('#library-search').fill('http://example.test/a.js');
    await t.page.getByText('Only https:// addresses can be added.').waitFor();
    expect(await seriousViolations()).to.deep.equal([]);
  });

  it('has no serious accessibility violations at 900 px with the More menu open', async () => {
    await t.page.setViewportSize({ width: 900, height: 900 });
    const bin = (await (await server.postForm('/api/save', { html: '<p>saved</p>' })).json()).url;
    await t.page.goto(`${server.url}/${bin}/1/edit`);
    await t.page.click('#more');
    await t.page.locator('#more-menu').waitFor();
    expect(await seriousViolations()).to.deep.equal([]);
  });

  it('reaches the pane toggles, Run with JS and Save with Tab, in the order they are shown', async () => {
    await t.page.goto(server.url + '/');
    await t.page.locator('#code-html .cm-content').waitFor();
    const reached: string[] = [];
    while (!reached.includes('Save') && reached.length < 30) {
      await t.page.keyboard.press('Tab');
      reached.push(await t.page.evaluate(() => document.activeElement!.textContent!.trim()));
    }
    const wanted = ['HTML', 'CSS', 'JavaScript', 'Console', 'Output', 'Run with JS', 'Save'];
    expect(reached.filter((name) => wanted.includes(name))).to.deep.equal(wanted);
  });

  it('shows where the keyboard focus is', async () => {
    await t.page.goto(server.url + '/');
    await t.page.keyboard.press('Tab');
    const outline = await t.page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).to.equal('solid');
  });
});

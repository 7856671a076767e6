import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import type { TestBinServer } from '../helpers/bin-server.js';
import { screenshot, type TestPage } from './browser.js';
import { withEditor } from './editor-page.js';

type Box = { x: number; y: number; width: number; height: number };

/** Whether `box` lies wholly inside the page's viewport. */
async function inViewport(page: Page, box: Box | null): Promise<boolean> {
  const { width, height } = page.viewportSize()!;
  return box !== null && box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'a box on screen').to.not.equal(null);
  return box!;
}

const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

// The editor as a new user first sees it, at three window widths (issue 25): the toolbar keeps Save in its
// place, pane headings stay one line each, and menus open inside the window.
describe('the editor at 1400, 1200 and 900 pixels wide, in Chromium', () => {
  let server: TestBinServer;
  let t: TestPage;
  withEditor((s) => (server = s), (p) => (t = p));

  const saveBin = async () => (await (await server.postForm('/api/save', { html: '<p>saved</p>', javascript: 'console.log(1)' })).json()).url as string;

  for (const width of [1400, 1200, 900]) {
    for (const which of ['new', 'saved'] as const) {
      it(`keeps Save on the toolbar's row, inside the window, on a ${which} bin at ${width}`, async () => {
        await t.page.setViewportSize({ width, height: 900 });
        await t.page.goto(which === 'new' ? server.url + '/' : `${server.url}/${await saveBin()}/1/edit`);
        await t.page.locator('#code-html .cm-content').waitFor();
        if (which === 'saved') await t.page.locator('#share').waitFor();
        await screenshot(t.page, `editor-${which}-${width}`);
        const save = await boxOf(t.page.locator('#save'));
        expect(await inViewport(t.page, save)).to.equal(true);
        // The row's top: the brand and the first pane toggle sit on it, as Save does.
        const toggle = await boxOf(t.page.locator('button[data-toggle="html"]'));
        expect(Math.abs(save.y - toggle.y)).to.be.below(2);
        // The toolbar is one row: nothing of it runs past the window's edge.
        expect(await t.page.locator('.toolbar').evaluate((bar) => bar.scrollWidth <= bar.clientWidth)).to.equal(true);
      });
    }

    it(`shows every pane heading on its own, with nothing spilling out, at ${width}`, async () => {
      await t.page.setViewportSize({ width, height: 900 });
      await t.page.goto(server.url + '/');
      await t.page.locator('#code-html .cm-content').waitFor();
      const headings = t.page.locator('.pane:not([hidden]) > h2');
      const boxes = await Promise.all((await headings.all()).map(boxOf));
      expect(boxes).to.have.length(5);
      for (const [i, a] of boxes.entries()) for (const b of boxes.slice(i + 1)) expect(overlap(a, b), 'two headings overlap').to.equal(false);
      // Each heading's content fits in it (a menu or button cut off by the next pane would not).
      const spilling = await headings.evaluateAll((all) =>
        all.filter((h2) => [...h2.querySelectorAll('button, select')].some((control) => {
          const [inner, outer] = [control.getBoundingClientRect(), h2.getBoundingClientRect()];
          return inner.left < outer.left || inner.right > outer.right || inner.top < outer.top || inner.bottom > outer.bottom;
        })).map((h2) => h2.parentElement!.id),
      );
      expect(spilling).to.deep.equal([]);
    });

    it(`opens the library list and the shortcut list inside the window at ${width}`, async () => {
      await t.page.setViewportSize({ width, height: 900 });
      await t.page.goto(server.url + '/');
      await t.page.getByRole('button', { name: 'Add library' }).click();
      const libraries = t.page.locator('#library-menu');
      await libraries.waitFor();
      expect(await inViewport(t.page, await libraries.boundingBox())).to.equal(true);
      await t.page.keyboard.press('Escape');
      await libraries.waitFor({ state: 'hidden' });
      await t.page.keyboard.press('?');
      const shortcuts = t.page.locator('#shortcuts-dialog');
      await shortcuts.waitFor();
      expect(await inViewport(t.page, await shortcuts.boundingBox())).to.equal(true);
    });
  }

  it('folds the less-used controls into More at 900, which opens inside the window and still works', async () => {
    await t.page.setViewportSize({ width: 900, height: 900 });
    await t.page.goto(`${server.url}/${await saveBin()}/1/edit`);
    const more = t.page.getByRole('button', { name: 'More' });
    await more.click();
    const menu = t.page.locator('#more-menu');
    await menu.waitFor();
    expect(await inViewport(t.page, await menu.boundingBox())).to.equal(true);
    for (const name of ['Save as template', 'Clone', 'Keyboard shortcuts']) {
      expect(await menu.getByRole('button', { name }).isVisible(), name).to.equal(true);
    }
    await menu.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    await t.page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    expect(await menu.isVisible()).to.equal(false);
  });

  it('brings the folded controls back to the toolbar when the window widens', async () => {
    await t.page.setViewportSize({ width: 900, height: 900 });
    await t.page.goto(server.url + '/');
    await t.page.locator('#more-menu #save-template').waitFor({ state: 'attached' });
    await t.page.setViewportSize({ width: 1400, height: 900 });
    await t.page.locator('.toolbar #save-template').waitFor();
    expect(await t.page.locator('#more').isHidden()).to.equal(true);
  });

  it('folds the share box away after a Copy, to a Shared button that opens it again', async () => {
    await t.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await t.page.goto(`${server.url}/${await saveBin()}/1/edit`);
    const box = t.page.locator('#share');
    const toggle = t.page.locator('#share-toggle');
    await box.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).to.equal('true');
    await box.getByRole('button', { name: 'Copy' }).first().click();
    await box.waitFor({ state: 'hidden' });
    expect(await toggle.innerText()).to.equal('Shared ✓');
    expect(await toggle.getAttribute('aria-expanded')).to.equal('false');
    expect(await t.page.evaluate(() => document.activeElement?.id)).to.equal('share-toggle');
    expect(await t.page.evaluate(() => navigator.clipboard.readText())).to.equal(await t.page.inputValue('#share-output'));
    await toggle.click();
    await box.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).to.equal('true');
    // The next revision's links are new: the button says Share again until they are copied.
    await t.page.keyboard.press('ControlOrMeta+S');
    await t.page.locator('#share-toggle', { hasText: /^Share$/ }).waitFor();
  });

  it('offers no Share button on a new bin, and one after its first save', async () => {
    await t.page.goto(server.url + '/');
    await t.page.locator('#code-html .cm-content').waitFor();
    expect(await t.page.locator('#share-toggle').isHidden()).to.equal(true);
    await t.page.getByRole('button', { name: 'Save', exact: true }).click();
    await t.page.locator('#share').waitFor();
    expect(await t.page.locator('#share-toggle').isVisible()).to.equal(true);
  });
});

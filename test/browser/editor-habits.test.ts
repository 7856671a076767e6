import { expect } from 'chai';
import type { TestBinServer } from '../helpers/bin-server.js';
import type { TestPage } from './browser.js';
import { readCode, replaceCode, withEditor } from './editor-page.js';

const JQUERY = '<script src="https://cdn.jsdelivr.net/npm/jquery@3.7.1/dist/jquery.min.js"></script>';

describe('editor habits in Chromium: resizing, shortcuts, Add library', () => {
  let server: TestBinServer;
  let t: TestPage;
  withEditor((s) => (server = s), (p) => (t = p));

  const width = async (pane: string) => (await t.page.locator(`#pane-${pane}`).boundingBox())!.width;
  const divider = (left: string) => t.page.locator(`.divider[aria-controls="pane-${left}"]`);

  /** Drags the divider after `left` sideways by `dx` pixels with the mouse; `during` runs before the release. */
  async function drag(left: string, dx: number, during?: () => Promise<void>): Promise<void> {
    const box = (await divider(left).boundingBox())!;
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await t.page.mouse.move(x, y);
    await t.page.mouse.down();
    await t.page.mouse.move(x + dx, y, { steps: 5 });
    await during?.();
    await t.page.mouse.up();
  }

  it('skips over a closing tag it inserted when the user types it anyway', async () => {
    await t.page.goto(server.url + '/');
    const pane = t.page.locator('#code-html .cm-content');
    await pane.click();
    await t.page.keyboard.press('ControlOrMeta+A');
    await t.page.keyboard.press('Delete');
    await t.page.keyboard.type('<ul><li>one</li><li>two</li></ul>');
    await t.page.keyboard.type('<button>Go</button>!');
    expect(await readCode(t.page, 'html')).to.equal('<ul><li>one</li><li>two</li></ul><button>Go</button>!');
    // A closing tag of another element is typed as it is.
    await t.page.keyboard.type('<p>a</b>');
    expect(await readCode(t.page, 'html')).to.equal('<ul><li>one</li><li>two</li></ul><button>Go</button>!<p>a</b></p>');
  });

  it('resizes the two panes beside a dragged divider and keeps their widths after a reload', async () => {
    await t.page.goto(server.url + '/');
    const [html, css, javascript] = [await width('html'), await width('css'), await width('javascript')];
    await drag('html', 120);
    expect(await width('html')).to.be.closeTo(html + 120, 2);
    expect(await width('css')).to.be.closeTo(css - 120, 2);
    expect(await width('javascript')).to.be.closeTo(javascript, 1);
    await t.page.reload();
    await t.page.locator('#code-html .cm-content').waitFor();
    expect(await width('html')).to.be.closeTo(html + 120, 2);
    expect(await width('css')).to.be.closeTo(css - 120, 2);
  });

  it('keeps the pointer from the preview frame while a divider is dragged over it', async () => {
    await t.page.goto(server.url + '/');
    const events = () => t.page.locator('#preview').evaluate((frame) => getComputedStyle(frame).pointerEvents);
    const output = await width('output');
    await drag('console', 200, async () => {
      expect(await events()).to.equal('none');
    });
    expect(await events()).to.equal('auto');
    expect(await width('output')).to.be.closeTo(output - 200, 2);
  });

  it('moves a focused divider with the arrow keys and says where it is', async () => {
    await t.page.goto(server.url + '/');
    const [html, css] = [await width('html'), await width('css')];
    expect(await divider('html').getAttribute('aria-valuenow')).to.equal('50');
    await divider('html').focus();
    await t.page.keyboard.press('ArrowRight');
    await t.page.keyboard.press('ArrowRight');
    const step = (html + css) * 0.05;
    expect(await width('html')).to.be.closeTo(html + 2 * step, 2);
    expect(await width('css')).to.be.closeTo(css - 2 * step, 2);
    expect(await divider('html').getAttribute('aria-valuenow')).to.equal('60');
    await t.page.keyboard.press('ArrowLeft');
    expect(await width('html')).to.be.closeTo(html + step, 2);
  });

  it('gives every pane the same width again on a double-click of a divider', async () => {
    await t.page.goto(server.url + '/');
    const html = await width('html');
    await drag('html', -100);
    expect(await width('html')).to.be.closeTo(html - 100, 2);
    await divider('css').dblclick();
    expect(await width('html')).to.be.closeTo(html, 1);
    await t.page.reload();
    await t.page.locator('#code-html .cm-content').waitFor();
    expect(await width('html')).to.be.closeTo(html, 1);
  });

  it('joins the panes beside a hidden one with a single divider', async () => {
    await t.page.goto(server.url + '/');
    await t.page.click('button[data-toggle="css"]');
    expect(await t.page.locator('.divider:visible').count()).to.equal(3);
    expect(await divider('html').getAttribute('aria-label')).to.equal('Resize HTML and JavaScript');
    expect(await divider('css').isHidden()).to.equal(true);
  });

  it('hides and shows the CSS pane with Ctrl+2 while the HTML editor has the focus', async () => {
    await t.page.goto(server.url + '/');
    const html = await readCode(t.page, 'html');
    await t.page.locator('#code-html .cm-content').click();
    await t.page.keyboard.press('Control+2');
    await t.page.locator('#pane-css').waitFor({ state: 'hidden' });
    expect(await t.page.getAttribute('button[data-toggle="css"]', 'aria-pressed')).to.equal('false');
    await t.page.keyboard.press('Control+2');
    await t.page.locator('#pane-css').waitFor({ state: 'visible' });
    expect(await t.page.getAttribute('button[data-toggle="css"]', 'aria-pressed')).to.equal('true');
    // The editor kept the focus and took no "2".
    expect(await t.page.evaluate(() => document.activeElement!.closest('#code-html') !== null)).to.equal(true);
    expect(await readCode(t.page, 'html')).to.equal(html);
  });

  it('hides the pane with the focus by Ctrl+1 and hands the focus to its toggle, remembered after a reload', async () => {
    await t.page.goto(server.url + '/');
    await t.page.locator('#code-html .cm-content').click();
    await t.page.keyboard.press('Control+1');
    await t.page.locator('#pane-html').waitFor({ state: 'hidden' });
    expect(await t.page.evaluate(() => document.activeElement!.getAttribute('data-toggle'))).to.equal('html');
    await t.page.reload();
    await t.page.locator('#code-css .cm-content').waitFor();
    expect(await t.page.locator('#pane-html').isHidden()).to.equal(true);
  });

  it('opens the list of shortcuts on "?" and closes it on Escape', async () => {
    await t.page.goto(server.url + '/');
    const dialog = t.page.locator('#shortcuts-dialog');
    await t.page.keyboard.press('?');
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.locator('tr').allInnerTexts()).to.include('Ctrl+S\tSave');
    await t.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('names the modifier ⌘ on a Mac, where Cmd+2 toggles the CSS pane', async () => {
    // A string: tsx would wrap a named function in a helper the page does not have.
    t.retire(); // an init script stays with the page
    await t.page.addInitScript("Object.defineProperty(Navigator.prototype, 'platform', { get: () => 'MacIntel' })");
    await t.page.goto(server.url + '/');
    expect(await t.page.getAttribute('#save', 'title')).to.equal('Save (⌘S)');
    expect(await t.page.getAttribute('button[data-toggle="css"]', 'aria-keyshortcuts')).to.equal('Meta+2');
    await t.page.locator('#code-html .cm-content').click();
    await t.page.keyboard.press('Meta+2');
    await t.page.locator('#pane-css').waitFor({ state: 'hidden' });
    await t.page.click('#shortcuts');
    expect(await t.page.locator('#shortcuts-dialog tr').first().innerText()).to.equal('⌘+S\tSave');
  });

  it('opens the list of shortcuts from the toolbar button', async () => {
    await t.page.goto(server.url + '/');
    await t.page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    await t.page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
  });

  it('types "?" into an editor rather than opening the list', async () => {
    await t.page.goto(server.url + '/');
    await replaceCode(t.page, 'javascript', 'a');
    await t.page.keyboard.press('?');
    expect(await readCode(t.page, 'javascript')).to.equal('a?');
    expect(await t.page.locator('#shortcuts-dialog').isVisible()).to.equal(false);
  });

  it('adds jQuery on its own line before </head>, and only once however often it is picked', async () => {
    await t.page.goto(server.url + '/');
    const starter = await readCode(t.page, 'html');
    for (let pick = 0; pick < 2; pick++) {
      await t.page.getByRole('button', { name: 'Add library' }).click();
      await t.page.getByRole('option', { name: 'jQuery 3.7.1' }).click();
    }
    await t.page.getByText('jQuery 3.7.1 is already in the HTML.').waitFor();
    const html = await readCode(t.page, 'html');
    expect(html).to.equal(starter.replace('</head>', `  ${JQUERY}\n</head>`));
  });

  it('takes an added library back with one undo', async () => {
    await t.page.goto(server.url + '/');
    const starter = await readCode(t.page, 'html');
    await t.page.getByRole('button', { name: 'Add library' }).click();
    await t.page.getByRole('option', { name: 'React 18.3.1 + ReactDOM' }).click();
    expect((await readCode(t.page, 'html')).match(/<script /g)).to.have.length(2);
    await t.page.locator('#code-html .cm-content').click();
    await t.page.keyboard.press('ControlOrMeta+Z');
    expect(await readCode(t.page, 'html')).to.equal(starter);
  });

  it('offers no Add library on a read-only watch page', async () => {
    const bin = (await (await server.postForm('/api/save', { html: '<p>watched</p>' })).json()).url;
    await t.page.goto(`${server.url}/${bin}/watch`);
    await t.page.locator('#code-html .cm-content').waitFor();
    expect(await t.page.locator('#add-library').isHidden()).to.equal(true);
  });

  it('opens the library list with the focus in its search and the first entry chosen, walked with the arrow keys', async () => {
    await t.page.goto(server.url + '/');
    await t.page.getByRole('button', { name: 'Add library' }).focus();
    await t.page.keyboard.press('Enter');
    // The search takes the focus in the list's toggle event, which comes after the key press: waited for.
    await t.page.waitForFunction(() => document.activeElement?.id === 'library-search');
    const chosen = () => t.page.locator('#library-list [aria-selected="true"]').innerText();
    expect(await chosen()).to.equal('jQuery 3.7.1');
    await t.page.keyboard.press('ArrowDown');
    expect(await chosen()).to.equal('React 18.3.1 + ReactDOM');
    await t.page.keyboard.press('ArrowUp');
    await t.page.keyboard.press('ArrowUp');
    expect(await chosen()).to.equal('Bootstrap Icons 1.11.3');
    // The combobox names the chosen entry for a screen reader.
    const id = await t.page.locator('#library-search').getAttribute('aria-activedescendant');
    expect(await t.page.locator(`#${id}`).innerText()).to.equal('Bootstrap Icons 1.11.3');
    await t.page.keyboard.press('Escape');
    await t.page.locator('#library-menu').waitFor({ state: 'hidden' });
  });
});

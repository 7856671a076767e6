import { expect } from 'chai';
import type { TestBinServer } from '../helpers/bin-server.js';
import type { TestPage } from './browser.js';
import { readCode, replaceCode, withEditor } from './editor-page.js';

const CHART = '<script src="https://cdn.jsdelivr.net/npm/chart.js@4.4.1/dist/chart.umd.js"></script>';

// Add library's search (issue 25): filtering by name and keywords, the keyboard, and any https address.
describe('searching and adding libraries in the editor, in Chromium', () => {
  let server: TestBinServer;
  let t: TestPage;
  withEditor((s) => (server = s), (p) => (t = p));

  const search = () => t.page.getByRole('combobox', { name: /Search libraries/ });
  const options = () => t.page.locator('#library-list [role="option"]').allInnerTexts();

  async function open(): Promise<void> {
    await t.page.goto(server.url + '/');
    await replaceCode(t.page, 'html', '<head>\n</head>\n<p>hi</p>');
    await t.page.getByRole('button', { name: 'Add library' }).click();
    await t.page.waitForFunction(() => document.activeElement?.id === 'library-search');
  }

  it('lists some fifty libraries before anything is typed', async () => {
    await open();
    expect((await options()).length).to.be.at.least(50);
  });

  it('narrows the list as the user types: "chart" shows Chart.js', async () => {
    await open();
    await t.page.keyboard.type('chart');
    await t.page.locator('#library-list [role="option"]', { hasText: 'Chart.js' }).waitFor();
    const shown = await options();
    expect(shown[0]).to.match(/^Chart\.js /);
    expect(shown.every((name) => !name.startsWith('jQuery'))).to.equal(true);
  });

  it('finds a library by a keyword its name lacks', async () => {
    await open();
    await t.page.keyboard.type('tooltips');
    await t.page.locator('#library-list [role="option"]', { hasText: 'Tippy.js' }).waitFor();
    expect(await options()).to.include.members(['Popper 2.11.8', 'Tippy.js 6.3.7 + Popper']);
  });

  it('adds the chosen library at its pinned URL with the arrow keys and Enter, then closes', async () => {
    await open();
    await t.page.keyboard.type('chart');
    await t.page.locator('#library-list [aria-selected="true"]', { hasText: 'Chart.js' }).waitFor();
    await t.page.keyboard.press('Enter');
    await t.page.locator('#library-menu').waitFor({ state: 'hidden' });
    expect(await readCode(t.page, 'html')).to.equal(`<head>\n  ${CHART}\n</head>\n<p>hi</p>`);
    await t.page.getByText('Added Chart.js 4.4.1 to the HTML.').waitFor();
  });

  it('walks down to the second match with ArrowDown and adds that one', async () => {
    await open();
    await t.page.keyboard.type('date');
    const shown = await options();
    expect(shown.length).to.be.at.least(2);
    await t.page.keyboard.press('ArrowDown');
    await t.page.keyboard.press('Enter');
    await t.page.locator('#library-menu').waitFor({ state: 'hidden' });
    await t.page.getByText(`Added ${shown[1]} to the HTML.`).waitFor();
  });

  it('says when nothing matches, and how to add an address instead', async () => {
    await open();
    await t.page.keyboard.type('nosuchthing');
    await t.page.getByText('No library matches "nosuchthing".', { exact: false }).waitFor();
    expect(await options()).to.deep.equal([]);
    await t.page.keyboard.press('Enter');
    expect(await t.page.locator('#library-menu').isVisible()).to.equal(true);
  });

  const addresses = [
    { typed: 'https://example.test/lib/theme.css', tag: '<link rel="stylesheet" href="https://example.test/lib/theme.css">' },
    { typed: 'https://example.test/lib/app.js?v=2', tag: '<script src="https://example.test/lib/app.js?v=2"></script>' },
    { typed: 'https://example.test/x"><b>.js', tag: '<script src="https://example.test/x%22%3E%3Cb%3E.js"></script>' },
  ];
  for (const { typed, tag } of addresses) {
    it(`adds ${tag} for the typed address ${typed}`, async () => {
      await open();
      await search().fill(typed);
      await t.page.locator('#library-list [aria-selected="true"]', { hasText: 'Add ' }).waitFor();
      await t.page.keyboard.press('Enter');
      await t.page.locator('#library-menu').waitFor({ state: 'hidden' });
      expect(await readCode(t.page, 'html')).to.equal(`<head>\n  ${tag}\n</head>\n<p>hi</p>`);
    });
  }

  for (const typed of ['http://example.test/lib.js', 'javascript:alert(1)', 'data:text/javascript,alert(1)']) {
    it(`refuses ${typed}, saying only https addresses can be added`, async () => {
      await open();
      await search().fill(typed);
      await t.page.getByText('Only https:// addresses can be added.').waitFor();
      expect(await options()).to.deep.equal([]);
      await t.page.keyboard.press('Enter');
      expect(await readCode(t.page, 'html')).to.equal('<head>\n</head>\n<p>hi</p>');
    });
  }

  it('tells that libraries load from the network when the output runs', async () => {
    await open();
    const note = t.page.locator('#library-menu .library-note');
    expect(await note.isVisible()).to.equal(true);
    expect(await note.innerText()).to.match(/load from the network .* each time the output runs/);
    // Still there while a search narrows the list.
    await t.page.keyboard.type('vue');
    expect(await note.isVisible()).to.equal(true);
  });

  // The CI run that failed: text typed before the toggle event's task came was wiped by it. Here the click and
  // the typing share one task, so the toggle event always comes after the text, as on a busy page.
  it('keeps what is typed at once after the click that opens it', async () => {
    await t.page.goto(server.url + '/');
    await t.page.evaluate(() => {
      document.getElementById('add-library')!.click();
      const box = document.getElementById('library-search') as HTMLInputElement;
      box.value = 'http://example.test/a.js';
      box.dispatchEvent(new Event('input'));
    });
    await t.page.waitForFunction(() => document.activeElement?.id === 'library-search');
    expect(await search().inputValue()).to.equal('http://example.test/a.js');
    expect(await t.page.locator('#library-empty').innerText()).to.equal('Only https:// addresses can be added.');
  });

  it('starts afresh each time it opens', async () => {
    await open();
    await t.page.keyboard.type('vue');
    await t.page.keyboard.press('Escape');
    await t.page.getByRole('button', { name: 'Add library' }).click();
    await t.page.waitForFunction(() => document.activeElement?.id === 'library-search');
    expect(await search().inputValue()).to.equal('');
    expect((await options()).length).to.be.at.least(50);
  });
});

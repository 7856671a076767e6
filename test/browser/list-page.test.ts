import { expect } from 'chai';
import type axe from 'axe-core';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { READ_ONLY } from '../../src/bins/auth/auth.js';
import { KEYED, OPEN, startBinServer, type TestBinServer } from '../helpers/bin-server.js';
import { nextMillisecond } from '../helpers/clock.js';
import { openPage, screenshot, type TestPage } from './browser.js';
import { clickToolbar, pathOf, readCode, withEditor } from './editor-page.js';
import { startPrefixProxy } from './prefix-proxy.js';

const AXE_SOURCE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');

describe('My bins in Chromium', () => {
  let server: TestBinServer;
  let t: TestPage;
  withEditor((s) => (server = s), (p) => (t = p));

  before(async () => {
    for (const [bin, html] of [['apple', '<p>Red fruit</p>'], ['banana', '<p>Yellow fruit</p>'], ['cherry', '<p>Small stone fruit</p>']]) {
      await server.store.append(bin, () => ({ html: html!, javascript: '', css: '', settings: {} }));
    }
  });

  it('goes from the editor to the list, filters it by typing, and opens a bin in the editor', async () => {
    await t.page.goto(`${server.url}/`);
    await t.page.getByRole('link', { name: 'My bins' }).click();
    await t.page.locator('tr[data-bin="apple"]').waitFor();
    expect(pathOf(t.page)).to.equal('/list');

    await t.page.getByRole('searchbox', { name: 'Filter bins' }).fill('YELLOW');
    await t.page.keyboard.press('Enter');
    await t.page.waitForURL(`${server.url}/list?q=YELLOW`);
    expect(await t.page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-bin')))).to.deep.equal([
      'banana',
    ]);

    await t.page.locator('tr[data-bin="banana"]').getByRole('link', { name: 'Edit' }).click();
    await t.page.waitForURL(`${server.url}/banana/edit`);
    await t.page.locator('#code-html .cm-content', { hasText: 'Yellow fruit' }).waitFor();
    expect(await readCode(t.page, 'html')).to.equal('<p>Yellow fruit</p>');
  });

  it('stays under a path prefix from the toolbar link to the list and back to an editor', async () => {
    const PREFIX = '/tools/bins';
    const proxy = await startPrefixProxy(server.url, PREFIX);
    try {
      await t.page.goto(`${proxy.url}${PREFIX}/apple/edit`);
      // A saved bin's toolbar (revisions, watchers, the Mocks toggle) folds My bins into More at 1280 px.
      // Both come after the page loads and fold the toolbar again: wait for them, then look where the link is.
      await t.page.locator('#watchers').waitFor();
      await t.page.locator('#revisions').waitFor({ state: 'attached' });
      await t.page.waitForFunction(() => !(document.querySelector('.revisions') as HTMLElement).hidden);
      // The toolbar refolds in a ResizeObserver callback, which runs before the next frame is painted.
      await t.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await clickToolbar(t.page, '.list-link');
      await t.page.waitForURL(`${proxy.url}${PREFIX}/list`);
      await t.page.locator('tr[data-bin="cherry"]').getByRole('link', { name: 'Edit' }).click();
      await t.page.waitForURL(`${proxy.url}${PREFIX}/cherry/edit`);
    } finally {
      proxy.close();
    }
  });
});

describe('My bins in Chromium: sorting, deleting, summaries', () => {
  let server: TestBinServer;
  let t: TestPage;
  before(async () => {
    server = await startBinServer(OPEN);
    // [bin, html, revisions], saved in this order, each in a later millisecond than the one before.
    const bins: [string, string, number][] = [
      ['lemon', '<!DOCTYPE html><html><head><title>Lemonade stand</title></head><body><h1>Ignored heading</h1></body></html>', 2],
      ['grape', '<html><head><title>snippetkit</title></head><body><p>intro</p><h2>Grape <em>varieties</em></h2></body></html>', 4],
      ['olive', '<div>\n  <p>First line of olives</p>\n  <p>Second line</p>\n</div>', 1],
      ['peach', '<h3>Peach &amp; cream</h3><p>more</p>', 3],
    ];
    for (const [bin, html, count] of bins) {
      for (let i = 0; i < count; i++) await server.store.append(bin, () => ({ html, javascript: '', css: '', settings: {} }));
      nextMillisecond();
    }
  });
  after(() => server.close());
  beforeEach(async () => {
    t = await openPage({ viewport: { width: 1400, height: 900 } });
  });
  afterEach(async () => {
    await t.close();
    expect(t.errors).to.deep.equal([]);
  });

  const rows = () => t.page.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-bin')));
  const sortState = () =>
    t.page.locator('th[aria-sort]').evaluateAll((ths) => ths.map((th) => `${th.textContent!.replace(/[▲▼]/g, '')} ${th.getAttribute('aria-sort')}`));

  it('shows each bin by its title, else its first heading, else its first line of text', async () => {
    await t.page.goto(`${server.url}/list`);
    const summaries = await t.page.locator('tbody tr').evaluateAll((trs) =>
      Object.fromEntries(trs.map((tr) => [tr.getAttribute('data-bin'), tr.querySelector('.summary')!.textContent])),
    );
    expect(summaries).to.deep.equal({
      lemon: 'Lemonade stand',
      grape: 'Grape varieties',
      olive: 'First line of olives',
      peach: 'Peach & cream',
    });
    expect(await t.page.title()).to.equal('My bins · snippetkit');
    expect(await t.page.locator('link[rel=icon]').getAttribute('href')).to.match(/^data:image\/svg\+xml;base64,/);
  });

  it('sorts by each column both ways from its header, keeping the order in the address across a reload', async () => {
    await t.page.goto(`${server.url}/list`);
    expect([await rows(), await sortState()]).to.deep.equal([['peach', 'olive', 'grape', 'lemon'], ['Last saved descending']]);
    const steps: [string, string, string[], string][] = [
      ['Bin', '/list?sort=name', ['grape', 'lemon', 'olive', 'peach'], 'Bin ascending'],
      ['Bin', '/list?sort=name&order=desc', ['peach', 'olive', 'lemon', 'grape'], 'Bin descending'],
      ['Revisions', '/list?sort=revisions', ['grape', 'peach', 'lemon', 'olive'], 'Revisions descending'],
      ['Revisions', '/list?sort=revisions&order=asc', ['olive', 'lemon', 'peach', 'grape'], 'Revisions ascending'],
      ['Last saved', '/list', ['peach', 'olive', 'grape', 'lemon'], 'Last saved descending'],
      ['Last saved', '/list?order=asc', ['lemon', 'grape', 'olive', 'peach'], 'Last saved ascending'],
    ];
    for (const [column, address, order, state] of steps) {
      await t.page.getByRole('columnheader', { name: column }).getByRole('link').click();
      await t.page.waitForURL(`${server.url}${address}`);
      expect([column, await rows(), await sortState()]).to.deep.equal([column, order, [state]]);
    }
    await t.page.reload();
    expect([await rows(), await sortState()]).to.deep.equal([['lemon', 'grape', 'olive', 'peach'], ['Last saved ascending']]);
  });

  it('keeps the order when filtering', async () => {
    await t.page.goto(`${server.url}/list?sort=name&order=desc`);
    await t.page.getByRole('searchbox', { name: 'Filter bins' }).fill('e');
    await t.page.keyboard.press('Enter');
    await t.page.waitForURL(`${server.url}/list?q=e&sort=name&order=desc`);
    expect(await rows()).to.deep.equal(['peach', 'olive', 'lemon', 'grape']);
  });

  for (const width of [1400, 1200, 900]) {
    it(`has no serious accessibility violations at ${width} px, with the delete dialog open too`, async () => {
      await t.page.setViewportSize({ width, height: 900 });
      await t.page.goto(`${server.url}/list?sort=revisions`);
      expect(await seriousViolations(t.page)).to.deep.equal([]);
      await t.page.locator('tr[data-bin="olive"]').getByRole('button', { name: 'Delete olive' }).click();
      await t.page.getByRole('dialog').waitFor();
      expect(await seriousViolations(t.page)).to.deep.equal([]);
    });
  }

  it('looks finished at 1400 and 900 px wide (screenshots in test-artifacts/)', async () => {
    await t.page.goto(`${server.url}/list?sort=name`);
    await screenshot(t.page, 'list-page-1400');
    await t.page.locator('tr[data-bin="grape"]').getByRole('button', { name: 'Delete grape' }).click();
    await t.page.getByRole('dialog').waitFor();
    await screenshot(t.page, 'list-page-dialog-1400');
    await t.page.keyboard.press('Escape');
    await t.page.setViewportSize({ width: 900, height: 900 });
    await screenshot(t.page, 'list-page-900');
  });

  it('keeps the bin when the dialog is cancelled, and gives the focus back to its button', async () => {
    await t.page.goto(`${server.url}/list`);
    const button = t.page.locator('tr[data-bin="lemon"]').getByRole('button', { name: 'Delete lemon' });
    await button.click();
    const dialog = t.page.getByRole('dialog', { name: 'Delete bin lemon?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).to.include('Its 2 revisions will be gone for good');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await button.evaluate((b) => b === document.activeElement)).to.equal(true);
    expect(await rows()).to.include('lemon');
    expect((await server.fetch('/api/lemon')).status).to.equal(200);
  });

  it('deletes a bin after the dialog: the row goes without a reload, and the bin is gone from the API', async () => {
    await t.page.goto(`${server.url}/list`);
    await t.page.evaluate(() => ((window as unknown as { marker: boolean }).marker = true));
    await t.page.locator('tr[data-bin="peach"]').getByRole('button', { name: 'Delete peach' }).click();
    await t.page.getByRole('dialog').getByRole('button', { name: 'Delete bin' }).click();
    await t.page.locator('tr[data-bin="peach"]').waitFor({ state: 'detached' });
    expect(await t.page.locator('#list-status').innerText()).to.equal('Deleted peach.');
    expect(await t.page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).to.equal(true); // no reload
    expect(await t.page.locator('nav.pages .total').innerText()).to.equal('3 bins');
    expect(await t.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).to.equal('Delete olive');
    const api = await server.fetch('/api/peach');
    expect([api.status, await api.json()]).to.deep.equal([404, { error: 'not found' }]);
    await t.page.reload();
    expect(await rows()).not.to.include('peach');
  });
});

describe('My bins in Chromium with a key', () => {
  const KEY = KEYED.ownership.api_key;
  let server: TestBinServer;
  let t: TestPage;
  before(async () => {
    server = await startBinServer(KEYED);
    await server.store.append('secret', () => ({ html: '<h1>Mine</h1>', javascript: '', css: '', settings: {} }));
  });
  after(() => server.close());
  beforeEach(async () => {
    t = await openPage();
  });
  afterEach(() => t.close());

  it('deletes with the session cookie the key gave the browser', async () => {
    await t.page.goto(`${server.url}/list?api_key=${KEY}`);
    await t.page.waitForURL(`${server.url}/list`);
    await t.page.getByRole('button', { name: 'Delete secret' }).click();
    await t.page.getByRole('dialog').getByRole('button', { name: 'Delete bin' }).click();
    await t.page.locator('tr[data-bin="secret"]').waitFor({ state: 'detached' });
    expect(await server.store.revisions('secret')).to.deep.equal([]);
  });
});

describe('My bins in Chromium on a read-only server', () => {
  let server: TestBinServer;
  let t: TestPage;
  before(async () => {
    server = await startBinServer({});
    await server.store.append('kept', () => ({ html: '<h1>Kept</h1>', javascript: '', css: '', settings: {} }));
  });
  after(() => server.close());
  beforeEach(async () => {
    t = await openPage();
  });
  afterEach(() => t.close());

  it('offers no Delete button, says why, and a delete the page tries anyway is refused', async () => {
    await t.page.goto(`${server.url}/list`);
    await t.page.locator('tr[data-bin="kept"]').waitFor();
    expect(await t.page.getByRole('button', { name: /Delete/ }).count()).to.equal(0);
    expect(await t.page.locator('#read-only').innerText()).to.include('This server is read-only');
    const answer = await t.page.evaluate(async () => {
      const res = await fetch('api/kept?all=true', { method: 'DELETE' });
      return [res.status, await res.json()];
    });
    expect(answer).to.deep.equal([403, { error: READ_ONLY }]);
    expect((await server.fetch('/api/kept')).status).to.equal(200);
    expect(await seriousViolations(t.page)).to.deep.equal([]);
  });
});

/** axe-core's serious and critical findings on the page, one line each (the page's policy does not apply to evaluate). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }));
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

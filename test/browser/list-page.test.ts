import { expect } from 'chai';
import type { TestBinServer } from '../helpers/bin-server.js';
import type { TestPage } from './browser.js';
import { pathOf, readCode, withEditor } from './editor-page.js';
import { startPrefixProxy } from './prefix-proxy.js';

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
      await t.page.getByRole('link', { name: 'My bins' }).click();
      await t.page.waitForURL(`${proxy.url}${PREFIX}/list`);
      await t.page.locator('tr[data-bin="cherry"]').getByRole('link', { name: 'Edit' }).click();
      await t.page.waitForURL(`${proxy.url}${PREFIX}/cherry/edit`);
    } finally {
      proxy.close();
    }
  });
});

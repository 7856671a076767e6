import { expect } from 'chai';
import { KEY_NEEDED } from '../../src/bins/auth/auth.js';
import { KEYED, OPEN, startBinServer, type TestBinServer } from '../helpers/bin-server.js';
import { usePage } from './browser.js';
import { clickToolbar, pathOf, preview, readCode, replaceCode } from './editor-page.js';

const SAVED_AS_TEMPLATE = 'Saved as the template: New starts from it.';

describe('Save as template and New in the editor, in Chromium', () => {
  let server: TestBinServer;
  const t = usePage();
  beforeEach(async () => {
    server = await startBinServer(OPEN);
  });
  afterEach(() => server.close());

  it('starts New from what was on screen at Save as template, preprocessors included', async () => {
    const bin = (await (await server.postForm('/api/save', { html: '<p>a bin</p>' })).json()).url;
    await t.page.goto(`${server.url}/${bin}/1/edit`);
    await replaceCode(t.page, 'html', '<h1 id="t">From the template</h1>');
    await t.page.selectOption('#processor-css', 'less');
    await replaceCode(t.page, 'css', '@c: rgb(0, 128, 0);\nh1 { color: @c; }');
    await replaceCode(t.page, 'javascript', "document.getElementById('t').dataset.ran = 'yes';");
    // A saved bin's toolbar at 1280 px holds its revisions and Share: these two are in More.
    await clickToolbar(t.page, '#save-template');
    await t.page.locator('#status', { hasText: SAVED_AS_TEMPLATE }).waitFor();

    await clickToolbar(t.page, '#new');
    await t.page.waitForURL((url) => url.pathname === '/');
    expect(await readCode(t.page, 'html')).to.equal('<h1 id="t">From the template</h1>');
    expect(await readCode(t.page, 'css')).to.equal('@c: rgb(0, 128, 0);\nh1 { color: @c; }');
    expect(await readCode(t.page, 'javascript')).to.equal("document.getElementById('t').dataset.ran = 'yes';");
    expect(await t.page.inputValue('#processor-css')).to.equal('less');
    await preview(t.page).locator('h1[data-ran="yes"]', { hasText: 'From the template' }).waitFor();
  });

  it('saves a bin made from the template as a new bin, leaving the template as it is', async () => {
    await server.fetch('/api/template', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"html":"<p>tpl</p>"}' });
    await t.page.goto(server.url + '/');
    await replaceCode(t.page, 'html', '<p>tpl, then mine</p>');
    await t.page.click('#save');
    await t.page.waitForURL((url) => /^\/\w+\/1\/edit$/.test(url.pathname));
    expect((await server.store.get(pathOf(t.page).split('/')[1]!))?.html).to.equal('<p>tpl, then mine</p>');
    expect((await server.store.template())?.html).to.equal('<p>tpl</p>');
  });

  it('says why when the server refuses the template', async () => {
    await t.page.goto(server.url + '/');
    await replaceCode(t.page, 'html', ' ');
    await replaceCode(t.page, 'css', '');
    await t.page.click('#save-template');
    await t.page.locator('#status.error').waitFor();
    expect(await t.page.locator('#status').innerText()).to.equal('Template not saved: Unable to save: The bin has no content.');
    expect(await server.store.template()).to.equal(undefined);
  });
});

describe('Save as template on a server whose writes need the key, in Chromium', () => {
  let server: TestBinServer;
  const t = usePage();
  beforeEach(async () => {
    server = await startBinServer(KEYED);
  });
  afterEach(() => server.close());

  it('asks for the key, saves the template with it and keeps the key for later', async () => {
    await t.page.goto(server.url + '/');
    await replaceCode(t.page, 'html', '<p>keyed template</p>');
    await t.page.click('#save-template');
    await t.page.locator('#key-dialog[open]').waitFor();
    expect(await t.page.locator('#key-reason').innerText()).to.equal(KEY_NEEDED);
    await t.page.fill('#key-input', 'sekrit-key');
    await t.page.click('#key-dialog button[value="ok"]');
    await t.page.locator('#status', { hasText: SAVED_AS_TEMPLATE }).waitFor();
    expect((await server.store.template())?.html).to.equal('<p>keyed template</p>');
    expect(await t.page.evaluate(() => localStorage.getItem('snippetkit:api-key'))).to.equal('sekrit-key');
  });

  it('stores nothing and says so when the key dialog is cancelled', async () => {
    await t.page.goto(server.url + '/');
    await t.page.click('#save-template');
    await t.page.locator('#key-dialog[open]').waitFor();
    await t.page.click('#key-dialog button[value="cancel"]');
    await t.page.locator('#status.error').waitFor();
    expect(await t.page.locator('#status').innerText()).to.equal(`Template not saved: ${KEY_NEEDED}.`);
    expect(await server.store.template()).to.equal(undefined);
  });
});

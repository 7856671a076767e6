import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { OPEN, startBinServer, type TestBinServer } from '../helpers/bin-server.js';
import { usePage } from './browser.js';

const PANES = ['html', 'css', 'javascript', 'console', 'output'];
const KEY = 'panel-link-key';

/**
 * The panes the editor shows, and what their buttons say, once its script has run (it makes the code
 * editors and lays out the panes in one go).
 */
async function shownPanes(page: Page): Promise<{ shown: string[]; pressed: string[] }> {
  await page.waitForFunction(() => document.querySelector('#code-html .cm-content') !== null);
  const shown: string[] = [];
  const pressed: string[] = [];
  for (const pane of PANES) {
    if (await page.isVisible(`.pane[data-pane="${pane}"]`)) shown.push(pane);
    if ((await page.getAttribute(`button[data-toggle="${pane}"]`, 'aria-pressed')) === 'true') pressed.push(pane);
  }
  return { shown, pressed };
}

const storedLayout = (page: Page) => page.evaluate(() => localStorage.getItem('snippetkit:hidden-panes'));

describe('panel links open the editor with exactly the panes they name, in Chromium', () => {
  let server: TestBinServer;
  let bin: string;
  const t = usePage();
  before(async () => {
    server = await startBinServer(OPEN);
    bin = (await (await server.postForm('/api/save', { html: '<p>linked</p>', css: 'p{}' })).json()).url;
  });
  after(() => server.close());

  const links: [string, string[]][] = [
    ['/BIN/edit?html,output', ['html', 'output']],
    ['/BIN/1/edit?js,console', ['javascript', 'console']],
    ['/BIN/edit?live,css', ['css', 'output']],
    ['/BIN/edit?html,bogus,output', ['html', 'output']],
    ['/?css,output', ['css', 'output']],
  ];
  for (const [link, panes] of links) {
    it(`shows only ${panes.join(' and ')} for ${link}, with the buttons pressed to match`, async () => {
      await t.page.goto(server.url + link.replace('BIN', bin));
      expect(await shownPanes(t.page)).to.deep.equal({ shown: panes, pressed: panes });
    });
  }

  it('leaves the remembered layout as it was', async () => {
    await t.page.goto(`${server.url}/${bin}/edit`);
    await t.page.click('button[data-toggle="css"]');
    const remembered = await storedLayout(t.page);
    expect(remembered).to.equal('["css"]');
    await t.page.goto(`${server.url}/${bin}/edit?css,output`);
    expect((await shownPanes(t.page)).shown).to.deep.equal(['css', 'output']);
    expect(await storedLayout(t.page)).to.equal(remembered);
    await t.page.goto(`${server.url}/${bin}/edit`);
    expect((await shownPanes(t.page)).shown).to.deep.equal(['html', 'javascript', 'console', 'output']);
  });

  it('remembers the layout on screen once a pane is toggled after a panel link', async () => {
    await t.page.goto(`${server.url}/${bin}/edit?html,output`);
    await shownPanes(t.page);
    await t.page.click('button[data-toggle="console"]');
    await t.page.goto(`${server.url}/${bin}/edit`);
    expect(await shownPanes(t.page)).to.deep.equal({ shown: ['html', 'console', 'output'], pressed: ['html', 'console', 'output'] });
  });

  it('keeps the remembered layout for a query that names no pane', async () => {
    await t.page.goto(`${server.url}/${bin}/edit`);
    await t.page.click('button[data-toggle="javascript"]');
    await t.page.goto(`${server.url}/${bin}/edit?bogus&x=html`);
    expect((await shownPanes(t.page)).shown).to.deep.equal(['html', 'css', 'console', 'output']);
  });

  it('offers the link\'s panes in the share box\'s Edit link', async () => {
    await t.page.goto(`${server.url}/${bin}/1/edit?html,output`);
    await shownPanes(t.page);
    expect(await t.page.inputValue('#share-edit')).to.equal(`${server.url}/${bin}/1/edit?html,output`);
  });
});

describe('panel links beside ?api_key= on a private server, in Chromium', () => {
  let server: TestBinServer;
  let bin: string;
  const t = usePage();
  before(async () => {
    server = await startBinServer({ api: { allowAnonymousRead: false }, ownership: { api_key: KEY } });
    const saved = await server.postForm('/api/save', { html: '<p>private</p>' }, { Authorization: `token ${KEY}` });
    bin = (await saved.json()).url;
  });
  after(() => server.close());

  it('lands on the editor without the key and with the panes the link names', async () => {
    await t.page.goto(`${server.url}/${bin}/edit?html,output&api_key=${KEY}`);
    expect(new URL(t.page.url()).search).to.equal('?html,output');
    expect(await shownPanes(t.page)).to.deep.equal({ shown: ['html', 'output'], pressed: ['html', 'output'] });
  });
});

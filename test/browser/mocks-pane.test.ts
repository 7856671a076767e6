import type axe from 'axe-core';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { OPEN, startBinServer, type TestBinServer } from '../helpers/bin-server.js';
import { startServerProcess, type ServerProcess } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { screenshot, usePage } from './browser.js';
import { preview, readCode, replaceCode } from './editor-page.js';

// The editor's Mocks pane on `snippetkit serve` (issue 26): the endpoints listed with live hit counts, a
// click that writes a call of one at the JavaScript's cursor, a link to the mock page, and "Make a mock"
// from selected JSON; on serve-bins alone, a note on how to get mocks.

/** The editor with the Mocks pane open (by a panel link), once its list has drawn `name`. */
async function openWithMocks(page: Page, url: string, name = 'user'): Promise<void> {
  await page.goto(`${url}/?html,js,console,output,mocks`);
  await page.locator(`#mock-list li[data-name="${name}"]`).waitFor();
}

/** Puts the JavaScript pane's cursor at the start of line `n` (from 1). */
async function cursorToLine(page: Page, n: number): Promise<void> {
  await page.locator('#code-javascript .cm-content').click();
  await page.keyboard.press('ControlOrMeta+Home');
  for (let i = 1; i < n; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
}

declare global {
  interface Window {
    axe: typeof axe;
  }
}

const AXE_SOURCE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');

/** axe-core's serious and critical findings on the page as it is now (not in the preview: the user's code). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const results = await page.evaluate(() => window.axe.run(document, { iframes: false, resultTypes: ['violations'] }));
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

const rowOf = (page: Page, name: string) => page.locator(`#mock-list li[data-name="${name}"]`);

describe('the editor\'s Mocks pane on snippetkit serve, in Chromium', function () {
  this.timeout(60_000); // a server process on a loaded machine
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess;
  const t = usePage();
  const api = (path: string, init?: RequestInit) => fetch(`${server.url}/mocks/api/${path}`, init);
  const put = (path: string, record: unknown) =>
    api(path, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(record) });

  before(async () => {
    temp = tempDir();
    server = await startServerProcess(
      ['serve', '--port', '0', '--bin-data', join(temp.dir, 'b.sqlite'), '--mock-data', join(temp.dir, 'm.sqlite')],
      { SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true' },
    );
    expect((await put('endpoint/user', { path: 'users/:id', methods: ['GET'], data: { id: 1, name: 'Ada' } })).status).to.equal(201);
    expect((await put('endpoint/login', { methods: ['POST'], statusCode: 401, data: { ok: false } })).status).to.equal(201);
  });
  after(async () => {
    await server?.stop();
    temp?.cleanup();
  });

  it('lists the endpoints with their methods, path, status and hits', async () => {
    await openWithMocks(t.page, server.url);
    const rows = await t.page.locator('#mock-list li').evaluateAll((items) =>
      items.map((item) => [...item.querySelectorAll('.mock-methods, .mock-path, .mock-status, .mock-hits')].map((part) => part.textContent)),
    );
    expect(rows).to.deep.equal([
      ['POST', '/login', '401', '0 hits'],
      ['GET', '/users/:id', '200', '0 hits'],
    ]);
    expect(await t.page.getAttribute('#mock-page-link', 'href')).to.equal(`${server.url}/mocks/static/`);
    for (const width of [1400, 900]) {
      await t.page.setViewportSize({ width, height: 700 });
      await screenshot(t.page, `mocks-pane-${width}`);
    }
  });

  it('shows and hides the pane with Ctrl+6, remembers it shown, and follows the hits only while shown', async () => {
    const streams: string[] = [];
    t.page.on('request', (request) => void (request.url().endsWith('/mocks/api/events') && streams.push(request.url())));
    await t.page.goto(`${server.url}/`);
    await t.page.locator('#code-javascript .cm-content').waitFor();
    // The mock server is found (the pane's button shows) before the pane is.
    await t.page.waitForFunction(() => !document.getElementById('make-mock')!.hidden);
    expect(await t.page.isVisible('#pane-mocks')).to.equal(false);
    expect(streams).to.deep.equal([]);
    await t.page.keyboard.press('ControlOrMeta+6');
    await rowOf(t.page, 'user').waitFor();
    expect(await t.page.getAttribute('button[data-toggle="mocks"]', 'aria-pressed')).to.equal('true');
    await t.page.reload();
    await rowOf(t.page, 'user').waitFor();
    await t.page.keyboard.press('ControlOrMeta+6');
    await t.page.locator('#pane-mocks').waitFor({ state: 'hidden' });
    expect(await t.page.getAttribute('button[data-toggle="mocks"]', 'aria-pressed')).to.equal('false');
    expect(streams).to.have.length(2); // one per page view that showed the pane
  });

  it('has no serious accessibility violations with the pane and the dialog open', async () => {
    await openWithMocks(t.page, server.url);
    expect(await seriousViolations(t.page)).to.deep.equal([]);
    await t.page.click('#make-mock');
    await t.page.locator('#mock-dialog[open]').waitFor();
    expect(await seriousViolations(t.page)).to.deep.equal([]);
  });

  it("writes the Mocks pane into the share box's Edit link when it is open", async () => {
    const saved = await fetch(`${server.url}/api/save`, { method: 'POST', body: new URLSearchParams({ javascript: '1' }) });
    const { url: bin } = (await saved.json()) as { url: string };
    await t.page.goto(`${server.url}/${bin}/1/edit?js,mocks`);
    await rowOf(t.page, 'user').waitFor();
    expect(await t.page.inputValue('#share-edit')).to.equal(`${server.url}/${bin}/1/edit?js,mocks`);
  });

  it('inserts a runnable call at the JavaScript\'s cursor, with the path\'s params filled', async () => {
    await openWithMocks(t.page, server.url);
    await replaceCode(t.page, 'javascript', "console.log('a');\n\nconsole.log('b');");
    await cursorToLine(t.page, 2);
    await rowOf(t.page, 'user').locator('.mock-insert').click();
    expect(await readCode(t.page, 'javascript')).to.equal(
      [
        "console.log('a');",
        '(async () => {',
        "  const res = await fetch('/endpoint/users/1');",
        '  console.log(res.status, await res.json());',
        '})();',
        "console.log('b');",
      ].join('\n'),
    );
  });

  it('inserts the one await line inside an async function, indented as its line', async () => {
    await openWithMocks(t.page, server.url);
    await replaceCode(t.page, 'javascript', 'async function load() {\n  \n}');
    await cursorToLine(t.page, 2);
    await rowOf(t.page, 'user').locator('.mock-insert').click();
    expect(await readCode(t.page, 'javascript')).to.equal("async function load() {\n  const res = await fetch('/endpoint/users/1');\n}");
  });

  it('counts the preview\'s calls live, and the call answers in the console', async () => {
    await openWithMocks(t.page, server.url);
    const hits = rowOf(t.page, 'user').locator('.mock-hits');
    const before = Number(await hits.getAttribute('data-hits'));
    await replaceCode(t.page, 'javascript', '');
    await rowOf(t.page, 'user').locator('.mock-insert').click();
    await t.page.locator('#console-log li', { hasText: 'Ada' }).waitFor();
    await t.page.locator(`#mock-list li[data-name="user"] .mock-hits[data-hits="${before + 1}"]`).waitFor();
    expect(await hits.textContent()).to.equal(`${before + 1} hit${before + 1 === 1 ? '' : 's'}`);
  });

  it('opens an endpoint on the mock page from its link', async () => {
    await openWithMocks(t.page, server.url);
    const [popup] = await Promise.all([t.context.waitForEvent('page'), rowOf(t.page, 'user').locator('.mock-open').click()]);
    await popup.locator('#endpoint-form').waitFor();
    expect(new URL(popup.url()).hash).to.equal('#endpoint/user');
    expect(await popup.inputValue('#name')).to.equal('user');
  });

  it('makes a mock of selected JSON that the preview can call at once', async () => {
    await openWithMocks(t.page, server.url);
    await replaceCode(t.page, 'javascript', '');
    await replaceCode(t.page, 'html', '[{"name": "Ada"}, {"name": "Grace"}]');
    await t.page.keyboard.press('ControlOrMeta+A');
    await t.page.click('.cm-tooltip .make-mock-action');
    await t.page.locator('#mock-dialog[open]').waitFor();
    expect(await t.page.inputValue('#mock-json')).to.equal('[{"name": "Ada"}, {"name": "Grace"}]');
    await t.page.fill('#mock-name', 'crew');
    await t.page.fill('#mock-path', 'team/crew');
    for (const width of [1400, 900]) {
      await t.page.setViewportSize({ width, height: 700 });
      await screenshot(t.page, `mocks-dialog-${width}`);
    }
    await t.page.click('#mock-submit');
    await t.page.locator('#mock-dialog').waitFor({ state: 'hidden' });
    await rowOf(t.page, 'crew').waitFor();
    expect(await rowOf(t.page, 'crew').locator('.mock-path').textContent()).to.equal('/team/crew');
    await t.page.locator('#status', { hasText: 'Made the mock crew' }).waitFor();
    await t.page.click('#status button:has-text("Insert a call")');
    expect(await readCode(t.page, 'javascript')).to.include("const res = await fetch('/endpoint/team/crew');");
    await t.page.locator('#console-log li', { hasText: 'Grace' }).waitFor();
    const stored = (await (await api('endpoint/crew')).json()) as { data: unknown };
    expect(stored.data).to.deep.equal([{ name: 'Ada' }, { name: 'Grace' }]);
    // The preview's own fetch, as a bin's code writes it.
    await replaceCode(t.page, 'javascript', "fetch('/endpoint/team/crew').then((r) => r.json()).then((d) => (document.body.textContent = d[1].name));");
    await preview(t.page).locator('body', { hasText: 'Grace' }).waitFor();
  });

  const refusals: [string, Record<string, unknown>][] = [
    ['a name the server refuses', { name: 'bad name', data: { a: 1 } }],
    ['a name in use', { name: 'user', data: { a: 1 } }],
    ['a path the server refuses', { name: 'fine', path: 'a/../b', data: { a: 1 } }],
  ];
  for (const [what, record] of refusals) {
    it(`shows the server's message for ${what} in the dialog, and stores nothing`, async () => {
      const expected = await put('endpoint/add', record);
      expect(expected.status).to.be.within(400, 499);
      const { message } = (await expected.json()) as { message: string };
      const listed = await (await api('endpoints')).text();
      await openWithMocks(t.page, server.url);
      await t.page.click('#make-mock');
      await t.page.fill('#mock-json', JSON.stringify(record.data));
      await t.page.fill('#mock-name', record.name as string);
      if (record.path) await t.page.fill('#mock-path', record.path as string);
      await t.page.click('#mock-submit');
      await t.page.locator('#mock-error:not([hidden])').waitFor();
      expect(await t.page.textContent('#mock-error')).to.equal(message);
      expect(await t.page.isVisible('#mock-dialog')).to.equal(true);
      expect(await (await api('endpoints')).text()).to.equal(listed);
    });
  }

  it("shows the server's 413 for JSON over its body limit, and stores nothing", async () => {
    const json = JSON.stringify({ a: 'x'.repeat(1_500_000) });
    const expected = await put('endpoint/add', { name: 'big', data: JSON.parse(json) });
    expect(expected.status).to.equal(413);
    const { message } = (await expected.json()) as { message: string };
    await openWithMocks(t.page, server.url);
    await t.page.click('#make-mock');
    await t.page.locator('#mock-json').evaluate((area, text) => ((area as HTMLTextAreaElement).value = text), json);
    await t.page.fill('#mock-name', 'big');
    await t.page.click('#mock-submit');
    await t.page.locator('#mock-error:not([hidden])').waitFor();
    expect(await t.page.textContent('#mock-error')).to.equal(message);
    expect((await api('endpoint/big')).status).to.equal(404);
  });

  it("fills the pane's Make a mock with the selection of the code pane used last", async () => {
    await openWithMocks(t.page, server.url);
    // Both panes keep a selection; the JavaScript's was made last.
    await replaceCode(t.page, 'html', '{"b": 2}');
    await t.page.keyboard.press('ControlOrMeta+A');
    await replaceCode(t.page, 'javascript', '{"c": 3}');
    await t.page.keyboard.press('ControlOrMeta+A');
    await t.page.click('#make-mock');
    await t.page.locator('#mock-dialog[open]').waitFor();
    expect(await t.page.inputValue('#mock-json')).to.equal('{"c": 3}');
    expect(await t.page.evaluate(() => document.activeElement?.id)).to.equal('mock-name');
  });

  it('says in the dialog when the JSON does not parse, and sends nothing', async () => {
    await openWithMocks(t.page, server.url);
    await t.page.click('#make-mock');
    await t.page.fill('#mock-json', '{"a": 1');
    await t.page.fill('#mock-name', 'never');
    await t.page.click('#mock-submit');
    await t.page.locator('#mock-error:not([hidden])').waitFor();
    expect(await t.page.textContent('#mock-error')).to.match(/^The JSON does not parse: /);
    expect((await api('endpoint/never')).status).to.equal(404);
  });
});

describe('the editor\'s Mocks pane on serve-bins alone, in Chromium', () => {
  let server: TestBinServer;
  const t = usePage();
  before(async () => {
    server = await startBinServer(OPEN);
  });
  after(() => server.close());

  it('says how to get mocks instead of a list, and offers no "Make a mock"', async () => {
    await t.page.goto(`${server.url}/?html,mocks`);
    await t.page.locator('#mocks-note').waitFor();
    expect(await t.page.textContent('#mocks-note')).to.include('snippetkit serve');
    expect(await t.page.isVisible('#make-mock')).to.equal(false);
    expect(await t.page.locator('#mock-list li').count()).to.equal(0);
    await replaceCode(t.page, 'html', '{"a": 1}');
    await t.page.keyboard.press('ControlOrMeta+A');
    expect(await t.page.locator('.cm-tooltip .make-mock-action').count()).to.equal(0);
    await screenshot(t.page, 'mocks-pane-alone');
  });

  it('keeps the embed page\'s tabs to the bin\'s panes when a link names mocks', async () => {
    const saved = await server.postForm('/api/save', { javascript: 'console.log(1)' });
    const { url: bin } = (await saved.json()) as { url: string };
    await t.page.goto(`${server.url}/${bin}/embed?js,mocks,output`);
    await t.page.locator('[role="tab"]').first().waitFor();
    expect(await t.page.locator('[role="tab"]').allInnerTexts()).to.deep.equal(['JavaScript', 'Output']);
  });
});

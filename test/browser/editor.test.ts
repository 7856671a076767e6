import { expect } from 'chai';
import { OPEN, startBinServer, type TestBinServer } from '../helpers/bin-server.js';
import { openPage, screenshot, type TestPage } from './browser.js';
import { pathOf, preview, readCode, replaceCode, withEditor } from './editor-page.js';

const EDIT_PATH = /^\/([a-z]+)\/(\d+)\/edit$/;

describe('the editor in Chromium', () => {
  let server: TestBinServer;
  let t: TestPage;
  withEditor((s) => (server = s), (p) => (t = p));

  /** Types a small bin into the three panes of the open editor. */
  async function typeBin(heading: string): Promise<void> {
    await replaceCode(t.page, 'html', `<!DOCTYPE html>\n<html>\n<body>\n<h1 id="t">${heading}</h1>\n</body>\n</html>`);
    await replaceCode(t.page, 'css', 'h1 { color: rgb(255, 0, 0); }');
    await replaceCode(t.page, 'javascript', "document.getElementById('t').textContent += ' and JS';");
  }

  /** Saves with the button and resolves with the bin and revision the address bar shows. */
  async function save(how: 'button' | 'keys' = 'button'): Promise<{ bin: string; rev: number }> {
    const before = t.page.url();
    if (how === 'button') await t.page.click('#save');
    else await t.page.keyboard.press('Control+S');
    await t.page.waitForURL((url) => url.href !== before && EDIT_PATH.test(url.pathname));
    const [, bin, rev] = EDIT_PATH.exec(pathOf(t.page))!;
    return { bin, rev: Number(rev) };
  }

  it('opens on / with the starter template and no script errors', async () => {
    await t.page.goto(server.url + '/');
    expect(await readCode(t.page, 'html')).to.include('<title>snippetkit</title>');
    expect([await readCode(t.page, 'css'), await readCode(t.page, 'javascript')]).to.deep.equal(['\n', '\n']);
    expect(t.errors).to.deep.equal([]);
  });

  it('renders what is typed in the three panes in the preview', async () => {
    await t.page.goto(server.url + '/');
    await typeBin('Typed');
    const heading = preview(t.page).locator('h1', { hasText: 'Typed and JS' });
    await heading.waitFor();
    expect(await heading.evaluate((el) => getComputedStyle(el).color)).to.equal('rgb(255, 0, 0)');
    await screenshot(t.page, 'editor-typed');
  });

  it('re-renders the preview as the user keeps typing', async () => {
    await t.page.goto(server.url + '/');
    await replaceCode(t.page, 'html', '<p>one</p>');
    await preview(t.page).locator('p', { hasText: 'one' }).waitFor();
    await t.page.keyboard.type(' two');
    await preview(t.page).locator('body', { hasText: 'one two' }).waitFor();
  });

  it('saves a new bin and lands on /:bin/1/edit without a reload', async () => {
    await t.page.goto(server.url + '/');
    await t.page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await typeBin('Saved');
    const { bin, rev } = await save();
    expect(rev).to.equal(1);
    expect(await t.page.evaluate(() => (window as unknown as { marker?: number }).marker)).to.equal(1);
    expect(await t.page.locator('#status').innerText()).to.equal('Saved revision 1.');
    expect(await t.page.inputValue('#share-output')).to.equal(`${server.url}/${bin}/1`);
    expect(await t.page.inputValue('#share-edit')).to.equal(`${server.url}/${bin}/1/edit?html,css,js,console,output`);
    const stored = await server.store.get(bin, 1);
    expect(stored?.css).to.equal('h1 { color: rgb(255, 0, 0); }');
    await preview(t.page).locator('h1', { hasText: 'Saved and JS' }).waitFor();
    await screenshot(t.page, 'editor-saved');
  });

  it('copies the output URL with the share box\'s Copy button', async () => {
    await t.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await t.page.goto(server.url + '/');
    await typeBin('Copied');
    const { bin } = await save();
    await t.page.click('button[data-copy="share-output"]');
    // Copying is what the share box is for: it folds away to the toolbar's button.
    await t.page.locator('#share-toggle', { hasText: 'Shared ✓' }).waitFor();
    expect(await t.page.evaluate(() => navigator.clipboard.readText())).to.equal(`${server.url}/${bin}/1`);
  });

  it('shows the saved code again after a reload', async () => {
    await t.page.goto(server.url + '/');
    await typeBin('Reloaded');
    await save();
    await t.page.reload();
    expect(await readCode(t.page, 'css')).to.equal('h1 { color: rgb(255, 0, 0); }');
    await preview(t.page).locator('h1', { hasText: 'Reloaded and JS' }).waitFor();
  });

  it('saves a change as revision 2 with Ctrl+S and lists both revisions', async () => {
    await t.page.goto(server.url + '/');
    await typeBin('First');
    const first = await save();
    await replaceCode(t.page, 'css', 'h1 { color: blue; }');
    const second = await save('keys');
    expect(second).to.deep.equal({ bin: first.bin, rev: 2 });
    expect((await server.store.get(first.bin, 2))?.css).to.equal('h1 { color: blue; }');
    expect(await t.page.locator('#revisions option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).to.deep.equal(['2', '1']);
    expect(await t.page.inputValue('#revisions')).to.equal('2');
  });

  it('opens revision 1 from the revision menu', async () => {
    await t.page.goto(server.url + '/');
    await typeBin('One');
    const { bin } = await save();
    await replaceCode(t.page, 'css', 'h1 { color: blue; }');
    await save();
    await t.page.selectOption('#revisions', '1');
    await t.page.waitForURL(`${server.url}/${bin}/1/edit`);
    expect(await readCode(t.page, 'css')).to.equal('h1 { color: rgb(255, 0, 0); }');
    expect(await t.page.inputValue('#revisions')).to.equal('1');
  });

  it('keeps the preview away from the editor\'s document, storage and cookies', async () => {
    await t.page.goto(server.url + '/');
    await t.page.evaluate(() => localStorage.setItem('snippetkit:api-key', 'secret'));
    await replaceCode(t.page, 'html', '<pre id="out"></pre>');
    await replaceCode(
      t.page,
      'javascript',
      [
        'function attempt(name, read) {',
        '  try { read(); return name + ": reached"; } catch (e) { return name + ": " + e.name; }',
        '}',
        "document.getElementById('out').textContent = [",
        "  attempt('parent document', function () { return window.parent.document.body; }),",
        "  attempt('top document', function () { return window.top.document.body; }),",
        "  attempt('localStorage', function () { return localStorage.getItem('snippetkit:api-key'); }),",
        "  attempt('parent localStorage', function () { return window.parent.localStorage; }),",
        "  attempt('cookie', function () { return document.cookie; }),",
        "].join('\\n');",
      ].join('\n'),
    );
    const out = preview(t.page).locator('#out', { hasText: 'cookie' });
    await out.waitFor();
    expect((await out.innerText()).split('\n')).to.deep.equal([
      'parent document: SecurityError',
      'top document: SecurityError',
      'localStorage: SecurityError',
      'parent localStorage: SecurityError',
      'cookie: SecurityError',
    ]);
  });

  it('shows the preview\'s console output and errors in the console pane', async () => {
    await t.page.goto(server.url + '/');
    await replaceCode(t.page, 'javascript', "console.log('hello', { a: 1 }, 2);\nconsole.warn('careful');\nnope();");
    const lines = t.page.locator('#console-log li');
    await lines.nth(2).waitFor();
    expect(await lines.evaluateAll((items) => items.map((li) => `${li.className}: ${li.textContent}`))).to.deep.equal([
      'log: hello {"a":1} 2',
      'warn: careful',
      'error: Uncaught ReferenceError: nope is not defined (line 3)',
    ]);
  });

  it('keeps unsaved code in the browser across a reload', async () => {
    await t.page.goto(server.url + '/');
    await replaceCode(t.page, 'javascript', 'unsaved()');
    await t.page.waitForFunction(() => localStorage.getItem('snippetkit:draft:new') !== null);
    await t.page.reload();
    expect(await readCode(t.page, 'javascript')).to.equal('unsaved()');
    expect(await t.page.locator('#status').innerText()).to.match(/^Restored your unsaved changes from .+\. Discard them$/);
  });

  it('hides a pane with its toolbar button and remembers it', async () => {
    await t.page.goto(server.url + '/');
    await t.page.click('button[data-toggle="css"]');
    expect(await t.page.isHidden('.pane[data-pane="css"]')).to.equal(true);
    await t.page.reload();
    expect(await t.page.isHidden('.pane[data-pane="css"]')).to.equal(true);
    expect(await t.page.getAttribute('button[data-toggle="css"]', 'aria-pressed')).to.equal('false');
  });

  it('opens a saved bin\'s output page, whose edit link leads back to the editor', async () => {
    await t.page.goto(server.url + '/');
    await typeBin('Output');
    const { bin } = await save();
    await t.page.goto(`${server.url}/${bin}/1`);
    expect(await t.page.locator('h1').innerText()).to.equal('Output and JS');
    await t.page.click('#snippetkit-edit');
    await t.page.waitForURL(`${server.url}/${bin}/1/edit`);
    expect(await readCode(t.page, 'css')).to.equal('h1 { color: rgb(255, 0, 0); }');
  });
});

describe('the editor in Chromium on a phone', () => {
  let server: TestBinServer;
  let t: TestPage;
  before(async () => {
    server = await startBinServer(OPEN);
    t = await openPage({ viewport: { width: 390, height: 844 } });
  });
  after(async () => {
    await t.close();
    await server.close();
  });

  it('stacks the panes one under another', async () => {
    await t.page.goto(server.url + '/');
    const html = await t.page.locator('.pane[data-pane="html"]').boundingBox();
    const output = await t.page.locator('.pane[data-pane="output"]').boundingBox();
    expect(html!.width).to.be.greaterThan(380);
    expect(output!.y).to.be.greaterThan(html!.y + html!.height);
    await screenshot(t.page, 'editor-phone');
  });
});

import { expect } from 'chai';
import type axe from 'axe-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page, Request } from 'playwright-core';
import { startServerProcess, type ServerProcess } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { until } from '../helpers/until.js';
import { screenshot, usePage } from './browser.js';
import { replaceCode } from './editor-page.js';
import { addPair } from './mocks/mock-page-fixtures.js';

// The mock page knows the bins (issue 26): a bin's sandboxed page sends Origin: null and no Referer, so it
// names itself on its calls to /endpoint/… (X-Snippetkit-Bin, src/shared/bin-claim.ts); the mock page
// shows the bin in the log, linked to its editor, and the bins that called lately; "Try it in a bin"
// saves a bin that makes the call and opens it, its answer in the console.

type Entry = { url: string; bin?: string };

declare global {
  interface Window {
    axe: typeof axe;
  }
}
const AXE_SOURCE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');

/** axe-core's serious and critical findings, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

describe('a bin’s calls on the mock page (snippetkit serve, Chromium)', function () {
  this.timeout(60_000); // a server process on a loaded machine
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess;
  const t = usePage();

  const putEndpoint = async (name: string, record: Record<string, unknown>) => {
    const res = await fetch(`${server.url}/mocks/api/endpoint/${name}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(record),
    });
    expect(res.status).to.be.oneOf([200, 201]);
  };
  const log = async (name: string): Promise<Entry[]> =>
    ((await (await fetch(`${server.url}/mocks/api/endpoint/${name}/requests`)).json()) as { requests: Entry[] }).requests;
  const entryFor = async (name: string, url: string) => (await log(name)).find((entry) => entry.url === url);
  const saveBin = async (panels: Record<string, string>): Promise<string> => {
    const res = await fetch(`${server.url}/api/save`, { method: 'POST', body: new URLSearchParams(panels) });
    expect(res.status).to.equal(200);
    return ((await res.json()) as { url: string }).url;
  };
  /** Calls the endpoint as a bin's page does: with its claim. */
  const callAs = (bin: string, path = '/endpoint/crew') => fetch(`${server.url}${path}`, { headers: { 'X-Snippetkit-Bin': bin } });
  /** Every request the page and its frames make, with all its headers. */
  const recordRequests = (page: Page) => {
    const seen: Request[] = [];
    page.on('request', (request) => seen.push(request));
    return async (path: string) => {
      const request = seen.find((one) => new URL(one.url()).pathname + new URL(one.url()).search === path && one.method() !== 'OPTIONS');
      return request ? await request.allHeaders() : undefined;
    };
  };

  before(async () => {
    temp = tempDir();
    server = await startServerProcess(
      ['serve', '--port', '0', '--bin-data', join(temp.dir, 'b.sqlite'), '--mock-data', join(temp.dir, 'm.sqlite')],
      { SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true' },
    );
    await putEndpoint('crew', { data: [{ id: 1, name: 'Ada' }] });
    await putEndpoint('user', { path: 'users/:id', template: true, data: { id: '{{params.id}}', name: 'Ada' } });
  });
  after(async () => {
    await server?.stop();
    temp?.cleanup();
  });

  it('names a sandboxed output page’s fetch and XHR in the log, at /BIN/REV, /BIN/latest and /BIN', async () => {
    const javascript = [
      'const done = [];',
      'const mark = (what) => { done.push(what); if (done.length === 5) document.title = "done"; };',
      `fetch('/endpoint/crew?via=fetch' + location.pathname).then(() => mark('fetch'));`,
      // The page's own headers stay: given as a Headers object, or on a Request with a body.
      `fetch('/endpoint/crew?via=headers' + location.pathname, { headers: new Headers({ 'X-Own': 'a' }) }).then(() => mark('headers'));`,
      `fetch(new Request('/endpoint/crew?via=request' + location.pathname, { method: 'POST', body: 'hi', headers: { 'X-Own': 'b' } })).then(() => mark('request'));`,
      `const x = new XMLHttpRequest(); x.open('GET', '/endpoint/crew?via=xhr' + location.pathname); x.onloadend = () => mark('xhr'); x.send();`,
      "fetch('/api/whoami?via=other').catch(() => {}).finally(() => mark('other'));",
    ].join('\n');
    const bin = await saveBin({ html: '<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>', javascript });
    const headersOf = recordRequests(t.page);
    for (const address of [`/${bin}/1`, `/${bin}/latest`, `/${bin}`]) {
      await t.page.goto(`${server.url}${address}`);
      await t.page.waitForFunction(() => document.title === 'done');
      // The page is sandboxed: Chromium sends no Referer and Origin: null, and the page names itself.
      const sent = await headersOf(`/endpoint/crew?via=fetch${address}`);
      expect(sent).to.include({ origin: 'null', 'x-snippetkit-bin': `${bin}/1` });
      expect(sent).not.to.have.property('referer');
      expect(await headersOf(`/endpoint/crew?via=xhr${address}`)).to.include({ 'x-snippetkit-bin': `${bin}/1` });
      expect(await entryFor('crew', `/endpoint/crew?via=fetch${address}`)).to.include({ bin: `${bin}/1` });
      expect(await entryFor('crew', `/endpoint/crew?via=xhr${address}`)).to.include({ bin: `${bin}/1` });
      expect(await headersOf(`/endpoint/crew?via=headers${address}`)).to.include({ 'x-own': 'a', 'x-snippetkit-bin': `${bin}/1` });
      expect(await headersOf(`/endpoint/crew?via=request${address}`)).to.include({ 'x-own': 'b', 'x-snippetkit-bin': `${bin}/1` });
      expect(await entryFor('crew', `/endpoint/crew?via=request${address}`)).to.include({ method: 'POST', body: 'hi', bin: `${bin}/1` });
    }
    // A call anywhere but /endpoint/ carries nothing of ours.
    expect(await headersOf('/api/whoami?via=other')).not.to.have.property('x-snippetkit-bin');
  });

  it('names the output of an embedded bin (/BIN/REV/embed)', async () => {
    const bin = await saveBin({ javascript: "fetch('/endpoint/crew?via=embed')" });
    await t.page.goto(`${server.url}/${bin}/1/embed`);
    await until(async () => (await entryFor('crew', '/endpoint/crew?via=embed')) !== undefined);
    expect(await entryFor('crew', '/endpoint/crew?via=embed')).to.include({ bin: `${bin}/1` });
  });

  it('names the editor’s live preview of a saved bin, and no bin for a new one', async () => {
    const bin = await saveBin({ javascript: '// calls nothing yet' });
    await t.page.goto(`${server.url}/${bin}/1/edit`);
    await replaceCode(t.page, 'javascript', "fetch('/endpoint/crew?via=preview')");
    await until(async () => (await entryFor('crew', '/endpoint/crew?via=preview')) !== undefined);
    expect(await entryFor('crew', '/endpoint/crew?via=preview')).to.include({ bin: `${bin}/1` });

    await t.page.goto(`${server.url}/`);
    await replaceCode(t.page, 'javascript', "fetch('/endpoint/crew?via=new-bin')");
    await until(async () => (await entryFor('crew', '/endpoint/crew?via=new-bin')) !== undefined);
    expect(await entryFor('crew', '/endpoint/crew?via=new-bin')).not.to.have.property('bin');
  });

  it('shows the bin in the mock page’s log, linked to its editor, and lists the bins that called lately', async () => {
    const bin = await saveBin({ html: '<p>calls crew</p>', javascript: "fetch('/endpoint/crew?via=log-link')" });
    await t.page.goto(`${server.url}/${bin}/1`);
    await until(async () => (await entryFor('crew', '/endpoint/crew?via=log-link')) !== undefined);

    await t.page.setViewportSize({ width: 1400, height: 900 });
    await t.page.goto(`${server.url}/mocks/#endpoint/crew`);
    const row = t.page.locator('#requests li', { hasText: 'via=log-link' }).first();
    const from = row.locator('.from-bin');
    await from.waitFor();
    expect(await from.innerText()).to.equal(`from bin ${bin}/1`);
    // The newest entry is open: its body links to the bin's editor.
    const link = row.locator('.bin-editor a');
    expect(await link.innerText()).to.equal(`Open ${bin}/1 in the editor`);
    expect(await link.getAttribute('href')).to.equal(`${server.url}/${bin}/1/edit`);
    const recent = t.page.locator('#recent-bins-list li a');
    expect(await recent.first().innerText()).to.equal(`${bin}/1`);
    await screenshot(t.page, 'bin-calls-log-1400');
    expect(await seriousViolations(t.page)).to.deep.equal([]);

    // The link opens the bin's editor in a new tab; the log goes on here.
    const [editor] = await Promise.all([t.context.waitForEvent('page'), link.click()]);
    await editor.waitForURL(`${server.url}/${bin}/1/edit`);
    await editor.waitForFunction((name) => document.title.startsWith(name), `${bin}/1`);
    await editor.close();

    await t.page.setViewportSize({ width: 900, height: 900 });
    await screenshot(t.page, 'bin-calls-endpoint-900');
    await t.page.click('#tab-log');
    await from.waitFor();
    await screenshot(t.page, 'bin-calls-log-900');
  });

  it('keeps the last 5 distinct bins, newest first, and moves one up as it calls again', async () => {
    await putEndpoint('roster', { data: [] });
    for (const bin of ['aaa/1', 'bbb/1', 'ccc/2', 'aaa/1', 'ddd/1', 'eee/1', 'fff/3']) await callAs(bin, '/endpoint/roster');
    await callAs('not a bin', '/endpoint/roster');
    await t.page.goto(`${server.url}/mocks/#endpoint/roster`);
    const names = () => t.page.locator('#recent-bins-list li a').allInnerTexts();
    await t.page.locator('#recent-bins-list li').nth(4).waitFor();
    expect(await names()).to.deep.equal(['fff/3', 'eee/1', 'ddd/1', 'aaa/1', 'ccc/2']);
    await t.page.waitForFunction(() => document.getElementById('log-state')?.textContent === 'live');
    // Live: a call that comes in while the page is open.
    await callAs('bbb/1', '/endpoint/roster');
    await t.page.locator('#recent-bins-list li a').first().filter({ hasText: 'bbb/1' }).waitFor();
    expect(await names()).to.deep.equal(['bbb/1', 'fff/3', 'eee/1', 'ddd/1', 'aaa/1']);
    expect(await t.page.locator('#recent-bins-list li a').first().getAttribute('href')).to.equal(`${server.url}/bbb/1/edit`);
    // An endpoint no bin called shows no list.
    await t.page.goto(`${server.url}/mocks/#endpoint/user`);
    await t.page.waitForFunction(() => document.getElementById('log-state')?.textContent === 'live');
    expect(await t.page.locator('#recent-bins').isHidden()).to.equal(true);
  });

  it('“Try it in a bin” saves a bin that calls the endpoint and opens it, the answer in its console', async () => {
    await t.page.setViewportSize({ width: 1400, height: 900 });
    await t.page.goto(`${server.url}/mocks/#endpoint/user`);
    await t.page.locator('#try-in-bin').waitFor();
    await t.page.fill('#try-param-id', '7');
    await screenshot(t.page, 'bin-calls-try-in-bin-1400');
    const [editor] = await Promise.all([t.context.waitForEvent('page'), t.page.click('#try-in-bin')]);
    await editor.waitForURL(/\/[a-z0-9_-]+\/1\/edit\?js,console$/);
    const bin = new URL(editor.url()).pathname.split('/')[1]!;
    const line = editor.locator('#console-log li.log', { hasText: '200' });
    await line.waitFor();
    expect(await line.innerText()).to.include('200 {"id":"7","name":"Ada"}');
    expect(await editor.locator('#code-javascript .cm-content').innerText()).to.include('const id = "7"; // :id');
    await screenshot(editor, 'bin-calls-try-in-bin-editor');
    await editor.close();
    // The page says what it made, and the call it made is named in the log by the new bin.
    await t.page.locator('#try-in-bin-status a', { hasText: `${bin}/1` }).waitFor();
    await t.page.locator('#try-it').scrollIntoViewIfNeeded();
    await screenshot(t.page, 'bin-calls-try-in-bin-saved-1400');
    await t.page.setViewportSize({ width: 900, height: 900 });
    await t.page.locator('#try-it').scrollIntoViewIfNeeded();
    await screenshot(t.page, 'bin-calls-try-in-bin-saved-900');
    await until(async () => (await log('user')).some((entry) => entry.bin === `${bin}/1`));
    // Its output page, opened alone, makes the same call.
    await t.page.goto(`${server.url}/${bin}/1`);
    await until(async () => (await log('user')).filter((entry) => entry.bin === `${bin}/1`).length >= 2);
    expect((await log('user'))[0]).to.include({ url: '/endpoint/users/7', bin: `${bin}/1` });
  });

  it('“Try it in a bin” writes what Try it holds as values: quotes, </script> and ${…} call the endpoint as typed', async () => {
    await putEndpoint('echo', {
      path: 'echo/:id',
      methods: ['POST'],
      template: true,
      data: { id: '{{params.id}}', q: '{{query.q}}', note: '{{headers.x-note}}', name: '{{body.name}}' },
    });
    await t.page.goto(`${server.url}/mocks/#endpoint/echo`);
    await t.page.locator('#try-in-bin').waitFor();
    const id = `a"b'c</script><script>alert(1)</script>`;
    await t.page.fill('#try-param-id', id);
    await addPair(t.page.locator('#try-it'), 'Query', 'q', '`${document.title}`');
    await addPair(t.page.locator('#try-it'), 'Request headers', 'X-Note', `it's "quoted"`);
    await t.page.fill('#try-body', '{"name": "</script><b>x"}');
    const [editor] = await Promise.all([t.context.waitForEvent('page'), t.page.click('#try-in-bin')]);
    const line = editor.locator('#console-log li.log', { hasText: '200' });
    await line.waitFor();
    const answer = JSON.parse((await line.innerText()).replace(/^200 /, ''));
    expect(answer).to.deep.equal({ id, q: '`${document.title}`', note: `it's "quoted"`, name: '</script><b>x' });
    await editor.close();
  });
});

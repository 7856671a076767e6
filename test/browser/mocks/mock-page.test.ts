import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { addEndpoint, startMockServer, type TestMockServer } from '../../mocks/server.js';
import { openPage, screenshot, type TestPage } from '../browser.js';
import { openEndpoint, replaceJson, withMockPage } from './mock-page-fixtures.js';
import { startPrefixProxy } from '../prefix-proxy.js';

/** The table's rows as tab-separated text. */
async function rows(page: Page): Promise<string[]> {
  return page.locator('#endpoints tbody tr').allInnerTexts();
}

describe('the mock page in Chromium', function () {
  this.timeout(30_000);
  let server: TestMockServer;
  let t: TestPage;
  withMockPage((s) => (server = s), (p) => (t = p));

  it('adds an endpoint through the form and lists it', async () => {
    await t.page.goto(`${server.url}/`);
    await t.page.click('#new');
    await t.page.fill('#name', 'users');
    await t.page.selectOption('#status-code', '201');
    await t.page.fill('#delay', '5');
    await t.page.click('#add-header');
    await t.page.fill('#headers-slot .pair-name', 'X-Mock');
    await t.page.fill('#headers-slot .pair-value', 'yes');
    await replaceJson(t.page, '[{"id": 1, "name": "Ada"}]');
    await t.page.click('#save');
    await t.page.waitForURL(/#endpoint\/users$/);
    expect(server.store.get('users')?.record).to.deep.include({
      json: '[{"id":1,"name":"Ada"}]',
      statusCode: 201,
      delay: 5,
      headers: { 'X-Mock': 'yes' },
    });
    // The sidebar lists it without a reload: the server-wide stream said the endpoints changed.
    await t.page.locator('#endpoint-list a[aria-current="page"]', { hasText: 'users' }).waitFor();
    await t.page.click('h1 a');
    await t.page.locator('#endpoints tbody tr', { hasText: 'users' }).waitFor();
    expect(await rows(t.page)).to.deep.include('users\t/users\tall\t201\t5\t0\tnever');
    await screenshot(t.page, 'mock-page-list');
  });

  it('shows a clear empty state for an endpoint that does not exist, never the form of the one before', async () => {
    await addEndpoint(server, { name: 'shown-before', data: { a: 1 } });
    await openEndpoint(t.page, server.url, 'shown-before');
    expect(await t.page.inputValue('#name')).to.equal('shown-before');
    await t.page.evaluate(() => (location.hash = '#endpoint/nope'));
    const missing = t.page.locator('#missing');
    await missing.waitFor();
    expect(await t.page.locator('#endpoint-title').innerText()).to.equal('nope');
    expect(await t.page.locator('#missing-text').innerText()).to.equal(
      "No endpoint named 'nope': it may have been deleted or renamed. Pick one from the list, or make a new one.",
    );
    for (const part of ['#endpoint-form', '#links', '#try-it', '#log', '#delete', '#source-note']) {
      expect(await t.page.locator(part).isVisible(), part).to.equal(false);
    }
    await screenshot(t.page, 'mock-page-missing-endpoint');
    await t.page.click('#missing >> text=New endpoint');
    await t.page.waitForURL(/#new$/);
    // The address changes before the hashchange handler draws the form: wait for the form itself.
    await t.page.locator('#endpoint-form').waitFor({ state: 'visible' });
    expect(await missing.isVisible()).to.equal(false);
  });

  it('filters the list by name', async () => {
    await addEndpoint(server, { name: 'filter-orders', data: [] });
    await addEndpoint(server, { name: 'filter-users', data: [] });
    await t.page.goto(`${server.url}/`);
    await t.page.locator('#endpoints tbody tr', { hasText: 'filter-users' }).waitFor();
    await t.page.fill('#filter', 'ORDERS');
    expect((await rows(t.page)).map((row) => row.split('\t')[0])).to.deep.equal(['filter-orders']);
    await t.page.fill('#filter', 'nothing-like-it');
    expect(await t.page.locator('#status').innerText()).to.equal('None matches "nothing-like-it".');
  });

  it('shows a call made from outside in the live log, without a reload', async () => {
    await addEndpoint(server, { name: 'hook', data: { ok: true } });
    await openEndpoint(t.page, server.url, 'hook');
    await server.fetch('/endpoint/hook?delivery=1', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': 'sha256=abc' },
      body: '{"event":"push","commits":[1]}',
    });
    const entry = t.page.locator('#requests li', { hasText: '/endpoint/hook?delivery=1' });
    await entry.waitFor();
    // The newest request is open: its headers and body show without a click.
    const text = await entry.innerText();
    expect(text).to.match(/^POST \/endpoint\/hook\?delivery=1 \d\d:\d\d:\d\d\.\d{3}/);
    expect(text).to.include('x-signature\nsha256=abc');
    expect(await entry.locator('pre').innerText()).to.equal('{\n  "event": "push",\n  "commits": [\n    1\n  ]\n}');
    await screenshot(t.page, 'mock-page-log');
  });

  it('saves a new status, and "Try it" returns it with headers, time and body', async () => {
    await addEndpoint(server, { name: 'status', data: { id: 7 }, headers: { 'X-Mock': 'yes' } });
    await openEndpoint(t.page, server.url, 'status');
    await t.page.selectOption('#status-code', '404');
    await t.page.click('#save');
    await t.page.locator('#saved', { hasText: 'Saved' }).waitFor();
    expect(server.store.get('status')?.record.statusCode).to.equal(404);
    await t.page.click('#try');
    await t.page.locator('#try-status', { hasText: '404 Not Found' }).waitFor();
    expect(await t.page.locator('#try-time').innerText()).to.match(/^\d+ ms$/);
    await t.page.click('#try-result summary');
    expect(await t.page.locator('#try-headers').innerText()).to.include('x-mock\nyes');
    expect(await t.page.locator('#try-response').innerText()).to.equal('{\n  "id": 7\n}');
    // The page's own call is a request like any other: it shows in the log too.
    await t.page.locator('#requests li', { hasText: 'GET /endpoint/status' }).waitFor();
  });

  it('shows where the JSON goes wrong, keeps save off and stores nothing', async () => {
    await addEndpoint(server, { name: 'strict', data: { a: 1 } });
    await openEndpoint(t.page, server.url, 'strict');
    await replaceJson(t.page, '{\n  "a": 1,\n  "b" 2\n}');
    await t.page.locator('#json-state', { hasText: 'Line 3' }).waitFor();
    expect(await t.page.locator('#json-state').innerText()).to.equal("Line 3, column 7: expected ':' but found '2'");
    expect(await t.page.isDisabled('#save')).to.equal(true);
    // Enter in a field submits a form even with its button off: that must not save either.
    await t.page.press('#delay', 'Enter');
    await t.page.locator('.cm-lint-marker-error').waitFor();
    expect(server.store.get('strict')?.record.json).to.equal('{"a":1}');
    await replaceJson(t.page, '{"a": 2}');
    await t.page.locator('#json-state', { hasText: 'valid' }).waitFor();
    expect(await t.page.isDisabled('#save')).to.equal(false);
  });

  it('shows the server\'s message next to the field it refuses', async () => {
    await t.page.goto(`${server.url}/static/#new`);
    await t.page.fill('#name', 'no spaces');
    await t.page.click('#save');
    await t.page.locator('#form-error', { hasText: 'name must be' }).waitFor();
    expect(await t.page.getAttribute('#name', 'aria-invalid')).to.equal('true');
    expect(server.store.get('no spaces')).to.equal(undefined);
  });

  it('deletes an endpoint only once the dialog is confirmed', async () => {
    await addEndpoint(server, { name: 'doomed', data: 1 });
    await openEndpoint(t.page, server.url, 'doomed');
    await t.page.click('#delete');
    expect(await t.page.locator('#confirm-delete').innerText()).to.include('Delete doomed?');
    await t.page.click('#confirm-delete button[value=cancel]');
    expect(server.store.get('doomed')).to.not.equal(undefined);
    await t.page.click('#delete');
    await t.page.click('#confirm-delete-button');
    await t.page.waitForURL((url) => url.hash === '' || url.hash === '#');
    await t.page.locator('#endpoints tbody tr', { hasText: 'doomed' }).waitFor({ state: 'detached' });
    expect(server.store.get('doomed')).to.equal(undefined);
    expect(await t.page.locator('#endpoint-list a[data-name="doomed"]').count()).to.equal(0);
  });

  it('copies the endpoint URL and a ready curl command', async () => {
    await addEndpoint(server, { name: 'copied', data: 1 });
    await t.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await openEndpoint(t.page, server.url, 'copied');
    const clipboard = () => t.page.evaluate(() => navigator.clipboard.readText());
    await t.page.click('#copy-url');
    await t.page.locator('#copy-url', { hasText: 'Copied' }).waitFor();
    expect(await clipboard()).to.equal(`${server.url}/endpoint/copied`);
    await t.page.click('#copy-curl');
    await t.page.locator('#copy-curl', { hasText: 'Copied' }).waitFor();
    expect(await clipboard()).to.equal(`curl -i '${server.url}/endpoint/copied'`);
  });

  it('copies curl as "Try it" would call: the method, path parameters filled, headers and the body', async () => {
    await addEndpoint(server, { name: 'orders', path: 'shops/:shopId/orders/:slug', methods: ['POST', 'PUT'], data: 1 });
    await t.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await openEndpoint(t.page, server.url, 'orders');
    const clipboard = () => t.page.evaluate(() => navigator.clipboard.readText());
    const url = `${server.url}/endpoint/shops/1/orders/slug`;
    expect(await t.page.locator('#endpoint-curl').innerText()).to.equal(`curl -i -X POST '${url}'`);
    await t.page.fill('#try-param-slug', "o'neil");
    await t.page.fill('#try-body', '{"qty": 2}');
    const expected = `curl -i -X POST '${server.url}/endpoint/shops/1/orders/o'\\''neil' -H 'content-type: application/json' --data-raw '{"qty": 2}'`;
    expect(await t.page.locator('#endpoint-curl').innerText()).to.equal(expected);
    await t.page.click('#copy-curl');
    await t.page.locator('#copy-curl', { hasText: 'Copied' }).waitFor();
    expect(await clipboard()).to.equal(expected);
  });

  it('fits a phone screen: no sideways scrolling on the list or an endpoint', async () => {
    await t.close();
    t = await openPage({ viewport: { width: 375, height: 740 } });
    await addEndpoint(server, { name: 'a-rather-long-endpoint-name-for-a-phone', data: { nested: { list: [1, 2, 3] } } });
    await t.page.goto(`${server.url}/`);
    await t.page.locator('#endpoints tbody tr').first().waitFor();
    const overflow = () => t.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).to.be.at.most(0);
    await screenshot(t.page, 'mock-page-phone-list');
    await openEndpoint(t.page, server.url, 'a-rather-long-endpoint-name-for-a-phone');
    expect(await overflow()).to.be.at.most(0);
    await screenshot(t.page, 'mock-page-phone-endpoint');
  });
});

describe('the mock page behind a reverse proxy under a path prefix', function () {
  this.timeout(30_000);
  const PREFIX = '/tools/mocks';
  let server: TestMockServer;
  let proxy: Awaited<ReturnType<typeof startPrefixProxy>>;
  let t: TestPage;
  before(async () => {
    server = await startMockServer();
    await addEndpoint(server, { name: 'users', data: [1], statusCode: 201, delay: 5 });
    await addEndpoint(server, { name: 'orders', data: [] });
    proxy = await startPrefixProxy(server.url, PREFIX);
  });
  after(async () => {
    proxy.close();
    await server.close();
  });
  beforeEach(async () => {
    t = await openPage();
  });
  afterEach(async () => {
    await t.close();
    expect(t.errors).to.deep.equal([]);
  });

  it('lists the endpoints, staying under the prefix from the redirect on', async () => {
    await t.page.goto(`${proxy.url}${PREFIX}/`);
    expect(t.page.url()).to.equal(`${proxy.url}${PREFIX}/static/`);
    await t.page.locator('#endpoints tbody tr').nth(1).waitFor();
    expect((await rows(t.page)).map((row) => row.split('\t').slice(0, 6).join(' '))).to.deep.equal([
      'orders /orders all 200 0 0',
      'users /users all 201 5 0',
    ]);
  });

  it('opens an endpoint with its URL under the prefix, and follows its log through the proxy', async () => {
    await t.page.goto(`${proxy.url}${PREFIX}/`);
    await t.page.click('#endpoints a:text-is("users")');
    await t.page.locator('#log-state', { hasText: 'live' }).waitFor();
    expect(await t.page.locator('#endpoint-url').innerText()).to.equal(`${proxy.url}${PREFIX}/endpoint/users`);
    await t.page.click('#try');
    await t.page.locator('#try-status', { hasText: '201 Created' }).waitFor();
    await fetch(`${proxy.url}${PREFIX}/endpoint/users?via=proxy`);
    await t.page.locator('#requests li', { hasText: '/endpoint/users?via=proxy' }).waitFor();
  });
});

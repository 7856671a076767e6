import { expect } from 'chai';
import type axe from 'axe-core';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { addEndpoint, startMockServer, type TestMockServer } from '../../mocks/server.js';
import { openPage, screenshot, type TestPage } from '../browser.js';
import { openEndpoint } from './mock-page-fixtures.js';

declare global {
  interface Window {
    axe: typeof axe;
  }
}

const AXE_SOURCE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');

type Box = { x: number; y: number; width: number; height: number };

async function box(page: Page, selector: string): Promise<Box> {
  const found = await page.locator(selector).boundingBox();
  expect(found, `${selector} is not shown`).to.not.equal(null);
  return found!;
}

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** axe-core's serious and critical findings, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

describe('the mock page as a workspace: list, endpoint and requests on one screen', function () {
  this.timeout(60_000);
  let server: TestMockServer;
  let t: TestPage;
  const open = async (width: number, height = 900) => {
    t = await openPage({ viewport: { width, height } });
  };
  beforeEach(async () => {
    server = await startMockServer();
    await addEndpoint(server, {
      name: 'users',
      path: 'users/:id',
      methods: ['GET', 'POST'],
      data: { id: 1 },
      responses: [
        { when: { method: ['POST'], body: { password: 'x' } }, statusCode: 401, data: { error: 'no' } },
        { statusCode: 500, fault: 'reset' },
      ],
    });
    await addEndpoint(server, { name: 'orders', data: [] });
  });
  afterEach(async () => {
    await t?.close();
    await server.close();
    expect(t.errors).to.deep.equal([]);
  });

  it('shows the three regions side by side at 1400×900, the page itself not scrolling', async () => {
    await open(1400);
    await openEndpoint(t.page, server.url, 'users');
    const [side, center, traffic] = [await box(t.page, '#sidebar'), await box(t.page, '#center'), await box(t.page, '#traffic')];
    for (const region of [side, center, traffic]) {
      expect(region.x).to.be.at.least(0);
      expect(region.x + region.width).to.be.at.most(1400);
      expect(region.y + region.height).to.be.at.most(900);
      expect(region.width).to.be.at.least(200);
    }
    expect(overlap(side, center) || overlap(center, traffic) || overlap(side, traffic)).to.equal(false);
    expect(side.x).to.be.below(center.x);
    expect(center.x).to.be.below(traffic.x);
    expect(await t.page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).to.be.at.most(0);
    expect(await t.page.isVisible('#region-tabs')).to.equal(false);
    await screenshot(t.page, 'mock-workspace-1400');
  });

  it('keeps the list live: a new endpoint and a call show without a reload, the call in the log within 1 s', async () => {
    await open(1400);
    await openEndpoint(t.page, server.url, 'users');
    await addEndpoint(server, { name: 'added-later', data: {} });
    await t.page.locator('#endpoint-list a[data-name="added-later"]').waitFor({ timeout: 5000 });
    const started = Date.now();
    // Response #2 answers it by resetting the connection.
    await server.fetch('/endpoint/users/7').then(() => expect.fail('answered'), () => undefined);
    await t.page.locator('#requests li', { hasText: '/endpoint/users/7' }).waitFor({ timeout: 1000 });
    const shownAfter = Date.now() - started;
    expect(shownAfter).to.be.below(1000);
    expect(await t.page.locator('#requests .answer').first().innerText()).to.equal('#2 → fault: reset');
    await t.page.locator('#endpoint-list a[data-name="users"] .stats', { hasText: '1 hit ·' }).waitFor({ timeout: 5000 });
  });

  it('folds the requests under a tab at 900 px, with arrow keys between the tabs', async () => {
    await open(900);
    await openEndpoint(t.page, server.url, 'users');
    await server.fetch('/endpoint/users/3').catch(() => undefined); // reset by response #2
    expect(await t.page.isVisible('#center')).to.equal(true);
    expect(await t.page.isVisible('#traffic')).to.equal(false);
    await t.page.locator('#tab-log-count', { hasText: '1' }).waitFor();
    await screenshot(t.page, 'mock-workspace-900');
    await t.page.click('#tab-log');
    expect(await t.page.isVisible('#traffic')).to.equal(true);
    expect(await t.page.isVisible('#center')).to.equal(false);
    expect(await t.page.getAttribute('#tab-log', 'aria-selected')).to.equal('true');
    await screenshot(t.page, 'mock-workspace-900-requests');
    await t.page.keyboard.press('ArrowLeft');
    expect(await t.page.isVisible('#center')).to.equal(true);
    expect(await t.page.evaluate(() => document.activeElement?.id)).to.equal('tab-main');
    expect(await t.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).to.be.at.most(0);
  });

  it('lists requests no endpoint answered with the closest endpoints, and makes an endpoint from one', async () => {
    await open(1400);
    await t.page.goto(`${server.url}/static/`);
    await t.page.locator('#unmatched-empty').waitFor();
    await server.fetch('/endpoint/user/7', { method: 'GET' });
    await server.fetch('/endpoint/carts/12/items', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"sku":"A-1","qty":2}',
    });
    const typo = t.page.locator('#unmatched-requests > li', { hasText: '/endpoint/user/7' });
    await typo.waitFor({ timeout: 5000 });
    expect(await typo.locator('.near li').allInnerTexts()).to.deep.equal(["users /users/:id: 'user' where it has 'users'"]);
    expect(await t.page.locator('#unmatched-count').innerText()).to.equal('2');
    await screenshot(t.page, 'mock-workspace-unmatched');

    const cart = t.page.locator('#unmatched-requests > li', { hasText: '/endpoint/carts/12/items' });
    expect(await cart.innerText()).to.include('No endpoint is close.');
    await cart.getByRole('button', { name: 'Make endpoint' }).click();
    await t.page.waitForURL(/#new$/);
    // The form is started by the page's hashchange handler, which may run just after the URL changes.
    await t.page.waitForFunction(() => (document.getElementById('name') as HTMLInputElement).value !== '');
    expect(await t.page.inputValue('#name')).to.equal('carts-items');
    expect(await t.page.inputValue('#path')).to.equal('carts/:id/items');
    expect(await t.page.isChecked('#method-post')).to.equal(true);
    expect(await t.page.isChecked('#method-get')).to.equal(false);
    expect(JSON.parse(await t.page.locator('#data-editor .cm-content').innerText())).to.deep.equal({ sku: 'A-1', qty: 2 });
    await t.page.click('#save');
    await t.page.waitForURL(/#endpoint\/carts-items$/);
    const res = await server.fetch('/endpoint/carts/12/items', { method: 'POST', body: '{}' });
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ sku: 'A-1', qty: 2 });
  });

  it('reorders responses by dragging one by its handle', async () => {
    await open(1400);
    await openEndpoint(t.page, server.url, 'users');
    const toggles = t.page.locator('#responses .response-toggle');
    expect(await toggles.allInnerTexts()).to.deep.equal(['#1 POST · body contains {password} → 401 JSON', '#2 always → fault reset']);
    await t.page.dragAndDrop('#responses > li:nth-child(2) .grip', '#responses > li:nth-child(1) .response-toggle');
    expect(await toggles.allInnerTexts()).to.deep.equal(['#1 always → fault reset', '#2 POST · body contains {password} → 401 JSON']);
    const sent = t.page.waitForRequest((request) => request.method() === 'PUT');
    await t.page.click('#save');
    expect((await sent).postDataJSON().responses.map((response: { statusCode: number }) => response.statusCode)).to.deep.equal([500, 401]);
  });

  for (const width of [1400, 1200, 900]) {
    it(`has no serious accessibility violations at ${width} px, on the overview and on an endpoint`, async () => {
      await open(width);
      await server.fetch('/endpoint/nothing-here');
      await t.page.goto(`${server.url}/static/`);
      await t.page.locator('#unmatched-requests > li').first().waitFor({ state: 'attached' });
      expect(await seriousViolations(t.page)).to.deep.equal([]);
      await openEndpoint(t.page, server.url, 'users');
      expect(await seriousViolations(t.page)).to.deep.equal([]);
      await screenshot(t.page, `mock-workspace-endpoint-${width}`);
    });
  }
});

import { expect } from 'chai';
import type axe from 'axe-core';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHECKOUT } from '../../mocks/checkout.js';
import { addEndpoint, startMockServer, type TestMockServer } from '../../mocks/server.js';
import { openPage, screenshot, type TestPage } from '../browser.js';

declare global {
  interface Window {
    axe: typeof axe;
  }
}
const AXE_SOURCE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');

// The mock page's Scenarios panel (templates/mocks/index.html #scenarios, src/client/mocks/scenarios-panel.ts).

describe('the mock page: the Scenarios panel', function () {
  this.timeout(60_000);
  let server: TestMockServer;
  let t: TestPage;
  beforeEach(async () => {
    server = await startMockServer();
    t = await openPage();
  });
  afterEach(async () => {
    await t.close();
    await server.close();
    expect(t.errors).to.deep.equal([]);
  });

  const checkout = () => t.page.getByLabel('State of scenario checkout', { exact: true });
  const stored = async () => (await (await server.fetch('/api/scenarios')).json()).scenarios;

  it('shows each state, follows requests that move it, and sets what the user picks', async () => {
    const { page } = t;
    for (const record of CHECKOUT) await addEndpoint(server, record);
    await addEndpoint(server, { name: 'light', scenario: 'lamp', data: 'off', setState: 'on' });
    await page.goto(`${server.url}/static/`);
    await page.locator('#scenarios').waitFor({ state: 'visible' });
    expect(await checkout().inputValue()).to.equal('start');
    expect(await checkout().locator('option').allTextContents()).to.deep.equal(['start', 'item added', 'paid']);
    expect(await page.locator('.scenario-name').allTextContents()).to.deep.equal(['checkout', 'lamp']);
    expect(await page.locator('#scenarios-start').isDisabled()).to.equal(true);
    await page.addScriptTag({ content: AXE_SOURCE });
    const found = await page.evaluate(() => window.axe.run({ include: [['#scenarios']] }, { resultTypes: ['violations'] }));
    expect(found.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).to.deep.equal([]);

    // A request from elsewhere moves the state: the panel follows the server's stream.
    await server.fetch('/endpoint/cart/items', { method: 'POST' });
    await page.waitForFunction(() => (document.querySelector('[data-scenario="checkout"]') as HTMLSelectElement)?.value === 'item added');

    const put = page.waitForResponse((res) => res.url().endsWith('/api/scenarios') && res.request().method() === 'PUT');
    await checkout().selectOption('paid');
    expect((await put).status()).to.equal(200);
    expect(await stored()).to.deep.equal({ checkout: 'paid', lamp: 'start' });
    expect(await (await server.fetch('/endpoint/cart')).json()).to.deep.equal({ items: ['book'], paid: true });
    await server.fetch('/endpoint/light');
    await page.waitForFunction(() => (document.querySelector('[data-scenario="lamp"]') as HTMLSelectElement)?.value === 'on');

    for (const width of [1400, 900]) {
      await page.setViewportSize({ width, height: 700 });
      await screenshot(page, `mock-page-scenarios-${width}`);
    }

    await page.click('#scenarios-start');
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLSelectElement>('#scenario-list select')].every((s) => s.value === 'start'));
    expect(await stored()).to.deep.equal({ checkout: 'start', lamp: 'start' });
  });

  it('stays hidden while no endpoint names a scenario, and shows one as soon as an endpoint does', async () => {
    const { page } = t;
    await addEndpoint(server, { name: 'plain', data: 1 });
    await page.goto(`${server.url}/static/`);
    await page.locator('#endpoint-list li').first().waitFor();
    expect(await page.locator('#scenarios').isHidden()).to.equal(true);
    await addEndpoint(server, CHECKOUT[0]!);
    await page.locator('#scenarios').waitFor({ state: 'visible' });
    expect(await checkout().inputValue()).to.equal('start');
  });

  it("says why a state was not set, and shows the server's scenarios again", async () => {
    const { page } = t;
    await addEndpoint(server, CHECKOUT[0]!);
    // No server stream: the page cannot hear of the delete below before the user picks.
    await page.route('**/api/events', (route) => route.abort());
    await page.goto(`${server.url}/static/`);
    await checkout().waitFor();
    await server.store.delete('cart');
    await checkout().selectOption('paid');
    await page.locator('#scenario-error').waitFor({ state: 'visible' });
    expect(await page.locator('#scenario-error').textContent()).to.equal("no scenario named 'checkout': no endpoint names it");
    await page.waitForFunction(() => document.querySelectorAll('#scenario-list li').length === 0);
  });

  it("keeps an endpoint's scenario, setState and a response's when.state and setState through the form, and saves them", async () => {
    const { page } = t;
    await addEndpoint(server, CHECKOUT[2]!);
    const record = async () => {
      const { hits, lastCall, created, updated, url, ...rest } = await (await server.fetch('/api/endpoint/pay')).json();
      return rest;
    };
    const before = await record();
    await page.goto(`${server.url}/static/#endpoint/pay`);
    await page.locator('#endpoint-form').waitFor();
    await page.waitForFunction(() => (document.getElementById('scenario') as HTMLInputElement).value === 'checkout');
    await page.locator('#responses .response-toggle').first().click();
    const card = page.locator('#responses > li').first();
    expect(await card.getByLabel("The endpoint's scenario is in state").inputValue()).to.equal('item added');
    expect(await card.getByLabel("Then the scenario's state is").inputValue()).to.equal('paid');
    let saved = page.waitForResponse((res) => res.request().method() === 'PUT');
    await page.click('#save');
    expect((await saved).status()).to.equal(200);
    expect(await record()).to.deep.equal(before);

    await page.fill('#set-state', 'refused');
    await card.getByLabel("Then the scenario's state is").fill('');
    saved = page.waitForResponse((res) => res.request().method() === 'PUT');
    await page.click('#save');
    await saved;
    const after = await record();
    expect(after.setState).to.equal('refused');
    expect(after.responses[0]).to.not.have.property('setState');
    expect(after.responses[0].when).to.deep.equal({ state: 'item added' });
    for (const width of [1400, 900]) {
      await page.setViewportSize({ width, height: 900 });
      await page.locator('#scenario').scrollIntoViewIfNeeded();
      await screenshot(page, `mock-page-scenario-fields-${width}`);
      await card.getByLabel("The endpoint's scenario is in state").scrollIntoViewIfNeeded();
      await screenshot(page, `mock-page-scenario-when-${width}`);
    }
  });

  it('shows the 400 of a setState without a scenario at that field', async () => {
    const { page } = t;
    await page.goto(`${server.url}/static/#new`);
    await page.fill('#name', 'lonely');
    await page.fill('#set-state', 'paid');
    await page.click('#save');
    await page.locator('#form-error').waitFor({ state: 'visible' });
    expect(await page.locator('#form-error').textContent()).to.contain('setState needs a scenario');
    expect(await page.locator('#set-state').getAttribute('aria-invalid')).to.equal('true');
    expect((await server.fetch('/api/endpoint/lonely')).status).to.equal(404);
  });
});

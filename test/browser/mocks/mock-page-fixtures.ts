import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { startMockServer, type TestMockServer } from '../../mocks/server.js';
import { openPage, type TestPage } from '../browser.js';

/**
 * A mock-page test file's hooks: one mock server for the file, a fresh page for each test, and a test
 * fails when its page logged an error.
 */
export function withMockPage(setServer: (server: TestMockServer) => void, setPage: (page: TestPage) => void): void {
  let server: TestMockServer;
  let t: TestPage;
  before(async () => {
    server = await startMockServer();
    setServer(server);
  });
  after(() => server.close());
  beforeEach(async () => {
    t = await openPage();
    setPage(t);
  });
  afterEach(async () => {
    await t.close();
    expect(t.errors).to.deep.equal([]);
  });
}

/** Replaces the JSON data as a user selecting all and pasting would (no auto-closed brackets). */
export async function replaceJson(page: Page, text: string): Promise<void> {
  await page.locator('#data-editor .cm-content').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

/** Opens one endpoint's view and waits until its live log is connected. */
export async function openEndpoint(page: Page, base: string, name: string): Promise<void> {
  await page.goto(`${base}/static/#endpoint/${name}`);
  // Below 1100 px the log sits under a tab, out of sight: its state is read, not waited to be seen.
  await page.waitForFunction(() => document.getElementById('log-state')?.textContent === 'live');
}

/** The fieldset inside `scope` whose own legend starts with `legend` (not one that only holds it). */
export const fieldset = (scope: Locator, legend: string): Locator =>
  scope.locator(`xpath=.//fieldset[legend[starts-with(normalize-space(.), "${legend}")]]`);

/** Adds a name/value row to the fieldset titled `legend` inside `scope` and fills it. */
export async function addPair(scope: Locator, legend: string, name: string, value: string): Promise<void> {
  const set = fieldset(scope, legend);
  await set.locator(':scope > button').click();
  await set.locator('.pair-name').last().fill(name);
  await set.locator('.pair-value').last().fill(value);
}

/** The name/value rows of the fieldset titled `legend` inside `scope`, as shown. */
export const pairs = (scope: Locator, legend: string): Promise<string[][]> =>
  fieldset(scope, legend)
    .locator('.pair-row')
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('input')].map((input) => input.value)));

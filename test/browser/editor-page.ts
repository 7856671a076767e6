import { OPEN, startBinServer, type TestBinServer } from '../helpers/bin-server.js';
import { openPage, type TestPage } from './browser.js';
import type { Page } from 'playwright-core';

export type Pane = 'html' | 'css' | 'javascript';

/** Replaces a pane's code as a user selecting all and pasting would (no auto-closed tags or brackets). */
export async function replaceCode(page: Page, pane: Pane, code: string): Promise<void> {
  await page.locator(`#code-${pane} .cm-content`).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(code);
}

/** A pane's code as the editor shows it. */
export function readCode(page: Page, pane: Pane): Promise<string> {
  return page.locator(`#code-${pane} .cm-content`).innerText();
}

/**
 * Clicks a toolbar control (`#save-template`, `#new`, ...), through the More menu when the toolbar is too
 * short to show it (toolbar.ts folds the least-used controls there first).
 */
export async function clickToolbar(page: Page, selector: string): Promise<void> {
  if ((await page.locator(`#more-menu ${selector}`).count()) > 0) await page.click('#more');
  await page.click(selector);
}

/** The preview's document, to find things in. */
export function preview(page: Page) {
  return page.frameLocator('#preview');
}

/** The editor's address as a path, e.g. "/rovoqe/1/edit". */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/**
 * Mocha hooks for editor tests: one bin server with an open API for the suite, a fresh browser
 * context and page for each test; both are handed to the suite's own variables and closed after.
 */
export function withEditor(setServer: (server: TestBinServer) => void, setPage: (page: TestPage) => void): void {
  let server: TestBinServer;
  let t: TestPage;
  before(async () => {
    server = await startBinServer(OPEN);
    setServer(server);
  });
  after(() => server.close());
  beforeEach(async () => {
    t = await openPage();
    setPage(t);
  });
  afterEach(() => t.close());
}

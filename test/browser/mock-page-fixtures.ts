import type { Page } from 'playwright-core';

/** Replaces the JSON data as a user selecting all and pasting would (no auto-closed brackets). */
export async function replaceJson(page: Page, text: string): Promise<void> {
  await page.locator('#data-editor .cm-content').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

/** Opens one endpoint's view and waits until its live log is connected. */
export async function openEndpoint(page: Page, base: string, name: string): Promise<void> {
  await page.goto(`${base}/static/#endpoint/${name}`);
  await page.locator('#log-state', { hasText: 'live' }).waitFor();
}

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

/** The preview's document, to find things in. */
export function preview(page: Page) {
  return page.frameLocator('#preview');
}

/** The editor's address as a path, e.g. "/rovoqe/1/edit". */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

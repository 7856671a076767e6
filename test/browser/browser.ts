import { expect } from 'chai';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Debian's Chromium headless shell (scripts/ensure-test-deps.sh installs it); playwright-core downloads
 * no browser. The shell is Chromium's page engine without the browser around it, which is what
 * Playwright itself runs headless tests in: the browser groups used about a third of the CPU they
 * used in the full `chromium` (docs/testing.md). Any Chromium works through SNIPPETKIT_TEST_CHROMIUM.
 */
export const CHROMIUM = process.env.SNIPPETKIT_TEST_CHROMIUM ?? '/usr/bin/chromium-headless-shell';

/** test-artifacts/ (gitignored): screenshots a run leaves behind. */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

// Flags for a container without a GPU, a sandbox or a network: Chromium otherwise tries to reach its
// update and sync services at start, which a closed network refuses many times over.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

let launched: Promise<Browser> | undefined;

/** The one browser of this test run, launched by the first browser test that asks. */
function browser(): Promise<Browser> {
  launched ??= chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  return launched;
}

// A root hook (this module loads once, from the first browser test file): the browser closes after the run.
after(async () => {
  if (launched) await (await launched).close();
});

export type TestPage = { page: Page; context: BrowserContext; errors: string[] };

/** A fresh context (its own storage) and page; `errors` collects the page's uncaught errors. */
export async function openPage(options: { viewport?: { width: number; height: number } } = {}): Promise<TestPage> {
  const context = await (await browser()).newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, context, errors };
}

/**
 * For a describe block: a fresh page for each test, closed after it, and the test fails on any
 * uncaught error of the page. The object's fields are those of the current test's page.
 */
export function usePage(): TestPage {
  const current = {} as TestPage;
  beforeEach(async () => {
    Object.assign(current, await openPage());
  });
  afterEach(async () => {
    await current.context.close();
    expect(current.errors).to.deep.equal([]);
  });
  return current;
}

/** Saves a screenshot of `page` as test-artifacts/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = `${ARTIFACTS}${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}

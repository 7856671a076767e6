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

/** The one browser of this test run, launched by the first browser test that asks (a test that needs a context of its own, recordHar, opens it here). */
export function browser(): Promise<Browser> {
  launched ??= chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  return launched;
}

// A root hook (this module loads once, from the first browser test file): the browser closes after the run.
after(async () => {
  spares.length = 0;
  if (launched) await (await launched).close();
});

export type TestPage = {
  page: Page;
  context: BrowserContext;
  errors: string[];
  /** Done with the page: it is cleaned and handed to the next test that opens one (or closed, see retire). */
  close(): Promise<void>;
  /** The test changed what cleaning cannot undo (an init script): its context is closed, not reused. */
  retire(): void;
};

type Viewport = { width: number; height: number };
const VIEWPORT: Viewport = { width: 1280, height: 800 };

/** A context and page between tests, with the origins it visited (whose storage is cleared). */
type Spare = { context: BrowserContext; page: Page; origins: Set<string> };

// Pages are reused from test to test. A new context costs a renderer process started, and the editor's
// 0.9 MB of script compiled again: about 1.1 s of Chromium's CPU per editor page, against 0.47 s on a
// page that loaded it before (measured; docs/testing.md). Between tests the page goes to about:blank, and
// its cookies, local storage, IndexedDB, permissions, routes, listeners, viewport and media emulation go
// back to a new context's; the HTTP cache stays, as a user's browser keeps it. Two spares: the live tests
// hold two pages at once.
const spares: Spare[] = [];
const SPARES = 2;

async function newSpare(): Promise<Spare> {
  const context = await (await browser()).newContext({ viewport: VIEWPORT });
  const origins = new Set<string>();
  // Every origin any page or frame of the context asks for: its storage is what a test may leave.
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'http:' || url.protocol === 'https:') origins.add(url.origin);
  });
  return { context, page: await context.newPage(), origins };
}

const PAGE_EVENTS = ['pageerror', 'console', 'dialog', 'request', 'response', 'requestfinished', 'requestfailed', 'popup', 'download', 'framenavigated', 'load', 'domcontentloaded', 'websocket', 'worker'] as const;

/** Back to what a new context gives: throws when that cannot be done, and the context is then closed. */
async function clean(spare: Spare): Promise<void> {
  const { context, page, origins } = spare;
  // Only the events tests listen to: the page keeps listeners of its own (close, crash).
  for (const event of PAGE_EVENTS) page.removeAllListeners(event);
  await Promise.all([context.unrouteAll({ behavior: 'ignoreErrors' }), page.unrouteAll({ behavior: 'ignoreErrors' })]);
  await Promise.all(context.pages().filter((other) => other !== page).map((other) => other.close()));
  await page.goto('about:blank', { timeout: 5000 });
  const cdp = await context.newCDPSession(page);
  try {
    for (const origin of origins) {
      await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'cookies,local_storage,indexeddb,cache_storage,service_workers' });
    }
  } finally {
    await cdp.detach();
  }
  origins.clear();
  await context.clearCookies();
  await context.clearPermissions();
  await page.setViewportSize(VIEWPORT);
  await page.emulateMedia({ media: null, colorScheme: null, reducedMotion: null, forcedColors: null });
}

/** A clean context and page (reused, see above); `errors` collects the page's uncaught errors. */
export async function openPage(options: { viewport?: Viewport } = {}): Promise<TestPage> {
  const spare = spares.pop() ?? (await newSpare());
  const { context, page } = spare;
  if (options.viewport) await page.setViewportSize(options.viewport);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  let retired = false;
  let closed = false;
  return {
    page,
    context,
    errors,
    retire: () => (retired = true),
    async close() {
      if (closed) return;
      closed = true;
      if (!retired && !page.isClosed() && spares.length < SPARES) {
        try {
          await clean(spare);
          spares.push(spare);
          return;
        } catch {
          // falls through: a page that cannot be cleaned is not handed on
        }
      }
      await context.close().catch(() => {});
    },
  };
}

/**
 * For a describe block: a clean page for each test, done with after it, and the test fails on any
 * uncaught error of the page. The object's fields are those of the current test's page.
 */
export function usePage(): TestPage {
  const current = {} as TestPage;
  beforeEach(async () => {
    Object.assign(current, await openPage());
  });
  afterEach(async () => {
    await current.close();
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

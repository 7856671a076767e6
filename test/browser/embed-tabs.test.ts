import { expect } from 'chai';
import type axe from 'axe-core';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Frame, Page } from 'playwright-core';
import { OPEN, startBinServer, type TestBinServer } from '../helpers/bin-server.js';
import { screenshot, usePage } from './browser.js';

declare global {
  interface Window {
    axe: typeof axe;
  }
}

const AXE_SOURCE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');

const HTML = `<main>
  <h1 class="title">Tabs, one at a time</h1>
  <p>Some text in a paragraph that goes on for quite a while, so that the line is longer than a small embed is wide.</p>
</main>
<script>document.querySelector('h1').dataset.ran = 'yes';</script>`;
const CSS = 'h1 { color: rebeccapurple; font: 600 24px/1.2 system-ui; }\nmain { padding: 8px; }';
const JAVASCRIPT = `const greeting = 'hello from the bin';
function shout(text) { return text.toUpperCase() + ' — ' + 'a long string that runs well past the right edge of a 700 pixel embed'; }
console.log(shout(greeting));`;

/** The tabs' names, the selected one marked with a "*". */
async function tabsOf(page: Page | Frame): Promise<string[]> {
  return page.$$eval('[role="tab"]', (tabs) => tabs.map((tab) => `${tab.textContent}${tab.getAttribute('aria-selected') === 'true' ? '*' : ''}`));
}

/** The panes whose panel shows. */
async function shownOf(page: Page | Frame): Promise<string[]> {
  return page.$$eval('section.panel', (panels) =>
    (panels as HTMLElement[]).filter((panel) => getComputedStyle(panel).visibility === 'visible' && !panel.hidden).map((panel) => panel.dataset.pane!),
  );
}

/** axe-core's serious and critical findings on the page as it is now, one line each (not inside the output). */
async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  const results = await page.evaluate(() => window.axe.run(document, { iframes: false, resultTypes: ['violations'] }));
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

describe('the embed page\'s tabs and highlighted code, in Chromium', () => {
  let server: TestBinServer;
  let bin: string;
  const t = usePage();
  before(async () => {
    server = await startBinServer(OPEN);
    bin = (await (await server.postForm('/api/save', { html: HTML, css: CSS, javascript: JAVASCRIPT })).json()).url;
  });
  after(() => server.close());

  /** The embed page of `query`, once its output (when it has one) has run. */
  const open = async (query: string) => {
    await t.page.goto(`${server.url}/${bin}/1/embed${query}`);
    if (!(await t.page.locator('section[data-pane="output"]').count())) return;
    await t.page.frameLocator('section[data-pane="output"] iframe').locator('h1[data-ran="yes"]').waitFor({ state: 'attached' });
  };

  it('shows the tabs the address names, in its order, with the output shown first', async () => {
    await open('?js,html,output');
    expect(await tabsOf(t.page)).to.deep.equal(['JavaScript', 'HTML', 'Output*']);
    expect(await shownOf(t.page)).to.deep.equal(['output']);
    expect(await t.page.title()).to.equal(`${bin}/1 · snippetkit`);
  });

  it('shows the output first, and the code a tab away, when the address names no panels', async () => {
    await open('');
    expect(await tabsOf(t.page)).to.deep.equal(['HTML', 'CSS', 'JavaScript', 'Output*']);
  });

  it('shows a tab\'s panel, and only that one, when it is clicked', async () => {
    await open('?html,css,js,output');
    await t.page.getByRole('tab', { name: 'CSS' }).click();
    expect(await tabsOf(t.page)).to.deep.equal(['HTML', 'CSS*', 'JavaScript', 'Output']);
    expect(await shownOf(t.page)).to.deep.equal(['css']);
    expect(await t.page.locator('#panel-css').getAttribute('aria-labelledby')).to.equal('tab-css');
    await t.page.getByRole('tab', { name: 'Output' }).click();
    expect(await shownOf(t.page)).to.deep.equal(['output']);
  });

  it('moves between tabs with the arrow keys, Home and End, and keeps only the selected tab in the Tab order', async () => {
    await open('?html,css,js,output');
    await t.page.getByRole('tab', { name: 'Output' }).focus();
    const steps: [string, string][] = [
      ['ArrowRight', 'HTML'],
      ['ArrowRight', 'CSS'],
      ['ArrowLeft', 'HTML'],
      ['ArrowLeft', 'Output'],
      ['Home', 'HTML'],
      ['End', 'Output'],
      ['ArrowLeft', 'JavaScript'],
    ];
    for (const [key, name] of steps) {
      await t.page.keyboard.press(key);
      const state = await t.page.evaluate(() => ({
        focused: document.activeElement!.textContent,
        inTabOrder: [...document.querySelectorAll<HTMLElement>('[role="tab"]')].filter((tab) => tab.tabIndex === 0).map((tab) => tab.textContent),
      }));
      expect(state, key).to.deep.equal({ focused: name, inTabOrder: [name] });
      expect(await tabsOf(t.page), key).to.include(`${name}*`);
    }
    expect(await shownOf(t.page)).to.deep.equal(['javascript']);
    // From the tabs, Tab goes on through the header's links to the code shown.
    const reached: string[] = [];
    for (let i = 0; i < 3; i++) {
      await t.page.keyboard.press('Tab');
      reached.push(await t.page.evaluate(() => document.activeElement!.closest('section')?.dataset.pane ?? document.activeElement!.textContent!));
    }
    expect(reached).to.deep.equal(['Open output', 'Edit in snippetkit', 'javascript']);
  });

  it('highlights HTML (with its script), CSS and JavaScript, leaving the text as it was', async () => {
    await open('?html,css,js');
    await t.page.locator('code[data-highlighted]').nth(2).waitFor({ state: 'attached' });
    const classes = async (pane: string) =>
      t.page.$$eval(`#panel-${pane} code span`, (spans) => [...new Set(spans.map((span) => span.className))]);
    expect(await classes('html')).to.include.members(['tok-typeName', 'tok-propertyName', 'tok-string', 'tok-variableName']);
    expect(await classes('css')).to.include.members(['tok-typeName', 'tok-propertyName', 'tok-number']);
    expect(await classes('javascript')).to.include.members(['tok-keyword', 'tok-string', 'tok-variableName tok-definition']);
    const texts = await t.page.$$eval('code', (codes) => codes.map((code) => code.textContent));
    expect(texts).to.deep.equal([HTML, CSS, JAVASCRIPT]);
    // The keyword colour, not the text colour: the stylesheet styles the classes.
    expect(await t.page.locator('#panel-javascript .tok-keyword').first().evaluate((span) => getComputedStyle(span).color)).to.equal(
      'rgb(119, 0, 136)',
    );
  });

  it('highlights preprocessor sources in their own language where there is a grammar, and leaves the others plain', async () => {
    const settings = JSON.stringify({ processors: { html: 'markdown', css: 'stylus', javascript: 'typescript' } });
    const fields = { html: '# A heading\n\nSome *emphasis*.', css: 'body\n  color red', javascript: 'const n: number = 1;', settings };
    const other = (await (await server.postForm('/api/save', fields)).json()).url;
    await t.page.goto(`${server.url}/${other}/1/embed?html,css,js`);
    expect(await tabsOf(t.page)).to.deep.equal(['Markdown*', 'Stylus', 'TypeScript']);
    await t.page.locator('#panel-javascript code[data-highlighted]').waitFor({ state: 'attached' });
    await t.page.locator('#panel-html code[data-highlighted]').waitFor();
    expect((await t.page.locator('#panel-html .tok-heading').allTextContents()).map((text) => text.trim())).to.include('A heading');
    expect(await t.page.locator('#panel-javascript .tok-typeName').textContent()).to.equal('number');
    expect(await t.page.locator('#panel-css code').evaluate((code) => ({ spans: code.children.length, text: code.textContent }))).to.deep.equal({
      spans: 0,
      text: 'body\n  color red',
    });
  });

  it('loads no highlighter when it shows no code', async () => {
    const scripts: string[] = [];
    t.page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await open('?console,output');
    expect(scripts).to.deep.equal(['/static/embed-page.js']);
  });
});

/**
 * Another site (another port, and `localhost` rather than 127.0.0.1) whose page frames `?src` at `?width`×`?height`.
 * Not about:blank, which `frame-ancestors *` does not let frame us, nor a route to a made-up name, which
 * Chromium's local network access checks stop from framing a loopback address.
 */
async function framingSite(): Promise<{ url: string; server: Server }> {
  const site = createServer((req, res) => {
    const query = new URL(req.url!, 'http://localhost').searchParams;
    const [src, width, height] = ['src', 'width', 'height'].map((name) => (query.get(name) ?? '').replace(/[^\w:/?,.=-]/g, ''));
    const frame = `<iframe src="${src}" title="embed" style="display:block;border:0;width:${width}px;height:${height}px"></iframe>`;
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!DOCTYPE html><html lang="en"><title>blog</title><body style="margin:0">${frame}</body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return { url: `http://localhost:${(site.address() as AddressInfo).port}/`, server: site };
}

describe('the embed page at the sizes it is framed at, in Chromium', () => {
  let server: TestBinServer;
  let bin: string;
  let blog: { url: string; server: Server };
  const t = usePage();
  before(async () => {
    server = await startBinServer(OPEN);
    bin = (await (await server.postForm('/api/save', { html: HTML, css: CSS, javascript: JAVASCRIPT })).json()).url;
    blog = await framingSite();
  });
  after(async () => {
    blog.server.close();
    await server.close();
  });

  /** A page of another origin framing the embed at `width`×`height`, in a window just that size. */
  async function framed(width: number, height: number, query: string): Promise<Frame> {
    await t.page.setViewportSize({ width, height });
    const src = `${server.url}/${bin}/1/embed${query}`;
    await t.page.goto(`${blog.url}?${new URLSearchParams({ src, width: String(width), height: String(height) })}`);
    const frame = (await (await t.page.$('iframe'))!.contentFrame())!;
    await frame.locator('code[data-highlighted]').first().waitFor({ state: 'attached' });
    await frame.frameLocator('section[data-pane="output"] iframe').locator('h1[data-ran="yes"]').waitFor({ state: 'attached' });
    return frame;
  }

  /** What a reader of a small embed needs: one row of tabs, code at a readable size, nothing wider than the frame. */
  async function layoutOf(frame: Frame) {
    return frame.evaluate(() => {
      const tabs = [...document.querySelectorAll('[role="tab"]')].map((tab) => tab.getBoundingClientRect());
      const header = document.querySelector('header')!.getBoundingClientRect();
      const shown = [...document.querySelectorAll<HTMLElement>('section.panel')].find((panel) => !panel.hidden)!;
      const pre = shown.querySelector('pre');
      const frameBox = shown.querySelector('iframe')?.getBoundingClientRect();
      return {
        tabRows: new Set(tabs.map((tab) => Math.round(tab.top))).size,
        headerHeight: Math.round(header.height),
        pageOverflows: document.documentElement.scrollWidth > document.documentElement.clientWidth,
        codeFontPx: pre ? parseFloat(getComputedStyle(pre).fontSize) : undefined,
        codeScrollsSideways: pre ? pre.scrollWidth > pre.clientWidth && getComputedStyle(pre).overflowX === 'auto' : undefined,
        outputFills: frameBox ? Math.round(frameBox.bottom) === innerHeight && Math.round(frameBox.top) === Math.round(header.bottom) : undefined,
      };
    });
  }

  it('reads well in a 700×300 frame: one row of tabs, a small header, code at 12px or more scrolling sideways', async () => {
    const frame = await framed(700, 300, '?html,css,js,console,output');
    const output = await layoutOf(frame);
    expect(output).to.include({ tabRows: 1, pageOverflows: false, outputFills: true });
    expect(output.headerHeight).to.be.at.most(36);
    await screenshot(t.page, 'embed-700x300-output');
    await frame.getByRole('tab', { name: 'JavaScript' }).click();
    const code = await layoutOf(frame);
    expect(code).to.include({ tabRows: 1, pageOverflows: false, codeScrollsSideways: true });
    expect(code.codeFontPx).to.be.at.least(12);
    await screenshot(t.page, 'embed-700x300-js');
    await frame.getByRole('tab', { name: 'Console' }).click();
    await frame.locator('#console-log li').getByText('HELLO FROM THE BIN').waitFor();
    expect(await layoutOf(frame)).to.include({ tabRows: 1, pageOverflows: false });
    await screenshot(t.page, 'embed-700x300-console');
  });

  it('keeps one row of tabs and no sideways page scroll at 360 pixels wide', async () => {
    const frame = await framed(360, 400, '?html,css,js,console,output');
    expect(await layoutOf(frame)).to.include({ tabRows: 1, pageOverflows: false, outputFills: true });
    await frame.getByRole('tab', { name: 'HTML' }).click();
    expect(await layoutOf(frame)).to.include({ tabRows: 1, pageOverflows: false, codeScrollsSideways: true });
    await screenshot(t.page, 'embed-360x400-html');
  });

  for (const [width, height] of [
    [900, 900],
    [1400, 900],
  ]) {
    it(`lays out at ${width}×${height}, the selected tab marked`, async () => {
      const frame = await framed(width, height, '?html,css,js,output');
      expect(await layoutOf(frame)).to.include({ tabRows: 1, pageOverflows: false, outputFills: true });
      const selected = frame.getByRole('tab', { name: 'Output' });
      const other = frame.getByRole('tab', { name: 'HTML' });
      const look = (tab: typeof selected) => tab.evaluate((el) => `${getComputedStyle(el).color} ${getComputedStyle(el).boxShadow}`);
      expect(await look(selected)).to.not.equal(await look(other));
      await screenshot(t.page, `embed-${width}x${height}-output`);
      await frame.getByRole('tab', { name: 'HTML' }).click();
      await screenshot(t.page, `embed-${width}x${height}-html`);
    });
  }

  for (const [width, height] of [
    [700, 300],
    [900, 900],
    [1400, 900],
  ]) {
    it(`has no serious accessibility violations at ${width}×${height}, on the output and on code`, async () => {
      await t.page.setViewportSize({ width, height });
      await t.page.goto(`${server.url}/${bin}/1/embed?html,js,console,output`);
      await t.page.locator('code[data-highlighted]').first().waitFor({ state: 'attached' });
      expect(await seriousViolations(t.page)).to.deep.equal([]);
      await t.page.getByRole('tab', { name: 'HTML' }).click();
      await t.page.locator('#panel-html code[data-highlighted]').waitFor();
      expect(await seriousViolations(t.page)).to.deep.equal([]);
      await t.page.getByRole('tab', { name: 'Console' }).click();
      expect(await seriousViolations(t.page)).to.deep.equal([]);
    });
  }
});

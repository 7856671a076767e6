import { expect } from 'chai';
import { OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';

describe('embed pages (/:bin/embed)', () => {
  let server: TestBinServer;
  let bin: string;
  before(async () => {
    server = await startBinServer({ ...OPEN, output: { frameAncestors: "'self'" } });
    const first = await server.postForm('/api/save', { html: '<p>one</p>', css: 'p { color: red }', javascript: 'console.log(1 < 2)' });
    bin = (await first.json()).url;
    await server.postForm(`/api/${bin}/save`, { html: '<p>two</p>', javascript: 'let two = 2;' });
  });
  after(() => server.close());

  /** The panes an embed page holds, in its order (a hidden output has no tab). */
  const panesOf = (page: string) => [...page.matchAll(/<section class="panel" data-pane="(\w+)"/g)].map((m) => m[1]);
  /** Its tabs: each one's pane and label, the selected one marked with a "*". */
  const tabsOf = (page: string) =>
    [...page.matchAll(/<button type="button" role="tab" id="tab-(\w+)" aria-controls="panel-\1" aria-selected="(\w+)" tabindex="-?\d">([^<]*)<\/button>/g)]
      .map((m) => `${m[1]}:${m[3]}${m[2] === 'true' ? '*' : ''}`);
  /** The panels that show before any script runs. */
  const shownOf = (page: string) => [...page.matchAll(/data-pane="(\w+)" id="panel-\1" role="tabpanel" aria-labelledby="tab-\1">/g)].map((m) => m[1]);

  const routes: [string, (b: string) => string, string, string[]][] = [
    ['the latest', (b) => `/${b}/embed`, '<p>two</p>', ['html:HTML', 'javascript:JavaScript', 'output:Output*']],
    ['a numbered revision', (b) => `/${b}/1/embed`, '<p>one</p>', ['html:HTML', 'css:CSS', 'javascript:JavaScript', 'output:Output*']],
    ['latest by name', (b) => `/${b}/latest/embed`, '<p>two</p>', ['html:HTML', 'javascript:JavaScript', 'output:Output*']],
  ];
  for (const [what, path, html, tabs] of routes) {
    it(`shows ${what} as its output, framed in a sandbox, its panels that hold code a tab away`, async () => {
      const res = await server.fetch(path(bin));
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      const page = await res.text();
      expect(tabsOf(page)).to.deep.equal(tabs);
      expect(shownOf(page)).to.deep.equal(['output']);
      const frame = /<iframe title="Output" sandbox="([^"]*)" srcdoc="([^"]*)"/.exec(page)!;
      expect(frame[1]).to.equal('allow-scripts allow-modals allow-forms allow-popups');
      expect(frame[2]).to.include(html.replace(/</g, '&#60;').replace(/>/g, '&#62;'));
    });
  }

  it('may be framed by any site, while output pages keep output.frameAncestors', async () => {
    const embed = await server.fetch(`/${bin}/embed`);
    expect(embed.headers.get('content-security-policy')).to.match(/frame-ancestors \*$/);
    expect(embed.headers.get('x-frame-options')).to.equal(null);
    const output = await server.fetch(`/${bin}`);
    expect(output.headers.get('content-security-policy')).to.include("frame-ancestors 'self'");
    expect(output.headers.get('x-frame-options')).to.equal('SAMEORIGIN');
  });

  it('shows the panels JS Bin\'s list names as tabs in the list\'s order, their source escaped, the output first', async () => {
    const page = await (await server.fetch(`/${bin}/1/embed?html,js,css,output`)).text();
    expect(tabsOf(page)).to.deep.equal(['html:HTML', 'javascript:JavaScript', 'css:CSS', 'output:Output*']);
    expect(panesOf(page)).to.deep.equal(['html', 'javascript', 'css', 'output']);
    expect(shownOf(page)).to.deep.equal(['output']);
    expect(page).to.include('<pre tabindex="0"><code data-language="html">&#60;p&#62;one&#60;/p&#62;</code></pre>');
    expect(page).to.include('<code data-language="javascript">console.log(1 &#60; 2)</code>');
    expect(page).to.include('<div role="tablist" aria-label="Panels">');
  });

  it('shows the first tab the list names when it names no output', async () => {
    const page = await (await server.fetch(`/${bin}/1/embed?css,html`)).text();
    expect(tabsOf(page)).to.deep.equal(['css:CSS*', 'html:HTML']);
    expect(shownOf(page)).to.deep.equal(['css']);
    expect(page).to.include('<section class="panel" data-pane="html" id="panel-html" role="tabpanel" aria-labelledby="tab-html" hidden>');
  });

  it('runs the output, hidden and without a tab, when the console is shown without it', async () => {
    const page = await (await server.fetch(`/${bin}/embed?js,console`)).text();
    expect(tabsOf(page)).to.deep.equal(['javascript:JavaScript*', 'console:Console']);
    expect(panesOf(page)).to.deep.equal(['javascript', 'console', 'output']);
    expect(page).to.include('<section class="panel" data-pane="output" hidden><iframe title="Output"');
    expect(page).to.include('<ol id="console-log" aria-label="Console" tabindex="0"></ol>');
  });

  it('names each code tab after its preprocessor and says so when a named panel is empty', async () => {
    const settings = JSON.stringify({ processors: { html: 'markdown', javascript: 'typescript' } });
    const saved = await server.postForm('/api/save', { html: '# Hi', javascript: 'let n: number = 1;', settings });
    const page = await (await server.fetch(`/${(await saved.json()).url}/embed?html,css,js`)).text();
    expect(tabsOf(page)).to.deep.equal(['html:Markdown*', 'css:CSS', 'javascript:TypeScript']);
    expect(page).to.include('<code data-language="markdown"># Hi</code>').and.include('<code data-language="typescript">');
    expect(page).to.include('<p class="empty">This bin has no CSS.</p>');
  });

  it('links to the output and the editor of what it shows, in new tabs', async () => {
    const latest = await (await server.fetch(`/${bin}/embed`)).text();
    expect(latest).to.include(`<a href="../${bin}/edit" target="_blank" rel="noopener">Edit<span class="wide"> in snippetkit</span></a>`);
    const first = await (await server.fetch(`/${bin}/1/embed`)).text();
    expect(first).to.include(`<a class="output" href="../../${bin}/1" target="_blank" rel="noopener">Open output</a>`);
  });

  it('answers 404 pages for a bin or revision that is not there', async () => {
    for (const path of ['/nosuchbin/embed', `/${bin}/9/embed`]) {
      const res = await server.fetch(path);
      expect(res.status, path).to.equal(404);
      expect(await res.text(), path).to.include('There is no bin, revision or page at this address.');
    }
  });

  it('serves the script that turns JS Bin\'s embed links into frames, adding no global name', async () => {
    const res = await server.fetch('/static/embed.js');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/javascript/);
    expect(await res.text()).to.match(/^\(\(\)=>\{/);
  });
});

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

  /** The panes an embed page shows, in its order. */
  const panesOf = (page: string) => [...page.matchAll(/<section (?:hidden )?class="panel" data-pane="(\w+)"/g)].map((m) => m[1]);

  const routes: [string, (b: string) => string, string][] = [
    ['the latest', (b) => `/${b}/embed`, '<p>two</p>'],
    ['a numbered revision', (b) => `/${b}/1/embed`, '<p>one</p>'],
    ['latest by name', (b) => `/${b}/latest/embed`, '<p>two</p>'],
  ];
  for (const [what, path, html] of routes) {
    it(`shows ${what} as its output, framed in a sandbox`, async () => {
      const res = await server.fetch(path(bin));
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      const page = await res.text();
      expect(panesOf(page)).to.deep.equal(['output']);
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

  it('shows the panels JS Bin\'s list names, their source escaped, in the editor\'s order', async () => {
    const page = await (await server.fetch(`/${bin}/1/embed?output,js,css,html`)).text();
    expect(panesOf(page)).to.deep.equal(['html', 'css', 'javascript', 'output']);
    expect(page).to.include('<code>&#60;p&#62;one&#60;/p&#62;</code>').and.include('<code>console.log(1 &#60; 2)</code>');
  });

  it('runs the output, hidden, when the console is shown without it', async () => {
    const page = await (await server.fetch(`/${bin}/embed?js,console`)).text();
    expect(panesOf(page)).to.deep.equal(['javascript', 'console', 'output']);
    expect(page).to.include('<section hidden class="panel" data-pane="output">');
    expect(page).to.include('<ol id="console-log" aria-label="Console"></ol>');
  });

  it('links to the output and the editor of what it shows, in new tabs', async () => {
    const latest = await (await server.fetch(`/${bin}/embed`)).text();
    expect(latest).to.include(`<a href="../${bin}/edit" target="_blank" rel="noopener">Edit in snippetkit</a>`);
    const first = await (await server.fetch(`/${bin}/1/embed`)).text();
    expect(first).to.include(`<a href="../../${bin}/1" target="_blank" rel="noopener">Output</a>`);
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

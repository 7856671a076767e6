import { expect } from 'chai';
import { OUTPUT_SANDBOX } from '../../../src/bins/config/security-headers.js';
import { KEYED, OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';

const HTML = '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>t</title>\n</head>\n<body>\n<p>two</p>\n</body>\n</html>';
const CSS = 'p { color: red }';
const JS = 'console.log("two")';

/** The output of the bin saved below at revision 2, with the edit link pointing at `edit` (none if undefined). */
function expectedOutput(bin: string, edit?: string): string {
  const link = edit === undefined ? '' : editLink(edit);
  return (
    `<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<!-- Made with snippetkit: ${bin}/2 -->\n<title>t</title>\n` +
    `<style>\n${CSS}\n</style>\n</head>\n<body>\n<p>two</p>\n<script>\n${JS}\n</script>\n${link}</body>\n</html>`
  );
}

/** The quiet output of revision 2: the bin's page with its css and javascript, nothing of ours. */
const QUIET =
  '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>t</title>\n' +
  `<style>\n${CSS}\n</style>\n</head>\n<body>\n<p>two</p>\n<script>\n${JS}\n</script>\n</body>\n</html>`;

function editLink(href: string): string {
  return (
    '<script>(function () {\n' +
    "  var a = document.createElement('a');\n" +
    `  a.href = ${JSON.stringify(href)};\n` +
    "  a.id = 'snippetkit-edit';\n" +
    "  a.textContent = 'Edit in snippetkit';\n" +
    "  a.setAttribute('style', 'position:fixed;right:0;bottom:0;z-index:2147483647;padding:4px 8px;" +
    "font:12px/1.4 system-ui,sans-serif;background:#222;color:#fff;text-decoration:none;border-top-left-radius:4px');\n" +
    '  document.body.appendChild(a);\n' +
    '})();</script>\n'
  );
}

/** An output page without the live-following script every output page starts with (tested in live.test.ts). */
async function outputText(res: Response): Promise<string> {
  const page = await res.text();
  const follow = /\n<script>\(function \(\) \{\n  if \(!window\.EventSource\) return;[\s\S]*?\n\}\)\(\);<\/script>/;
  if (!follow.test(page)) throw new Error(`no follow script in ${page}`);
  return page.replace(follow, '');
}

/** The EditorData JSON the editor page carries. */
async function editorData(res: Response): Promise<any> {
  const page = await res.text();
  const json = /<script type="application\/json" id="editor-data">(.*)<\/script>/.exec(page)?.[1];
  if (json === undefined) throw new Error(`no editor data in ${page}`);
  return JSON.parse(json);
}

describe('bin pages', () => {
  let server: TestBinServer;
  let bin: string;
  before(async () => {
    server = await startBinServer(OPEN);
    const first = await (await server.postForm('/api/save', { html: '<p>one</p>', css: 'p{}', javascript: 'one()' })).json();
    bin = first.url;
    await server.postForm(`/api/${bin}/save`, { html: HTML, css: CSS, javascript: JS });
  });
  after(() => server.close());

  describe('output pages', () => {
    const routes: [string, (bin: string) => string, ((bin: string) => string) | undefined][] = [
      ['/:bin shows the latest with an edit link to the latest', (b) => `/${b}`, (b) => `./${b}/edit`],
      ['/:bin/latest shows the latest', (b) => `/${b}/latest`, (b) => `../${b}/edit`],
      ['/:bin/2 shows revision 2 with an edit link to it', (b) => `/${b}/2`, (b) => `../${b}/2/edit`],
      ['/:bin.html is the output page, as in JS Bin', (b) => `/${b}.html`, (b) => `./${b}/edit`],
      ['/:bin/2.html is the output page of revision 2', (b) => `/${b}/2.html`, (b) => `../${b}/2/edit`],
    ];
    for (const [name, path, edit] of routes) {
      it(name, async () => {
        const res = await server.fetch(path(bin));
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
        expect(await outputText(res)).to.equal(expectedOutput(bin, edit?.(bin)));
      });
    }

    const quiet: [string, (bin: string) => string][] = [
      ['/:bin/quiet', (b) => `/${b}/quiet`],
      ['/:bin/2/quiet', (b) => `/${b}/2/quiet`],
      ['/:bin/latest/quiet', (b) => `/${b}/latest/quiet`],
      ['/:bin?quiet', (b) => `/${b}?quiet`],
      ['/:bin/2?quiet', (b) => `/${b}/2?quiet`],
      ['/:bin/latest?quiet=1', (b) => `/${b}/latest?quiet=1`],
    ];
    for (const [name, path] of quiet) {
      it(`${name} sends the bin's page with nothing of ours in it`, async () => {
        const res = await server.fetch(path(bin));
        expect(res.status).to.equal(200);
        expect(await res.text()).to.equal(QUIET);
      });
    }

    it('shows revision 1 as it was saved', async () => {
      const res = await server.fetch(`/${bin}/1/quiet`);
      expect(await res.text()).to.equal('<style>\np{}\n</style>\n<p>one</p><script>\none()\n</script>\n');
    });

    it('finds the bin whatever the case of its id', async () => {
      const res = await server.fetch(`/${bin.toUpperCase()}/quiet`);
      expect(res.status).to.equal(200);
      expect(await res.text()).to.equal(QUIET);
    });

    const redirects: [string, string][] = [
      ['/BIN/js', '../BIN.js'],
      ['/BIN/css', '../BIN.css'],
      ['/BIN/2/js', '../2.js'],
      ['/BIN/latest/css?x=1', '../latest.css?x=1'],
      ['/BIN/', '../BIN'],
      ['/BIN/2/?quiet', '../2?quiet'],
      ['/BIN/edit/', '../edit'],
      ['/BIN/2/edit/?html,js', '../edit?html,js'],
    ];
    for (const [from, to] of redirects) {
      it(`redirects ${from} to ${to} (301, relative), as JS Bin did`, async () => {
        const res = await server.fetch(from.replace('BIN', bin), { redirect: 'manual' });
        expect(res.status).to.equal(301);
        expect(res.headers.get('location')).to.equal(to.replace('BIN', bin));
        const target = new URL(res.headers.get('location')!, server.url + from.replace('BIN', bin));
        expect((await server.fetch(target.pathname + target.search)).status).to.equal(200);
      });
    }

    it('sandboxes the page so a bin cannot read the editor\'s storage on this origin', async () => {
      const res = await server.fetch(`/${bin}`);
      expect(res.headers.get('content-security-policy')).to.equal(`${OUTPUT_SANDBOX}; frame-ancestors 'self'`);
      expect(OUTPUT_SANDBOX).to.equal('sandbox allow-scripts allow-modals allow-forms allow-popups');
    });

    it('answers HEAD with the headers and no body', async () => {
      const res = await server.fetch(`/${bin}`, { method: 'HEAD' });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(await res.text()).to.equal('');
    });
  });

  describe('raw panels, source and download', () => {
    const routes: [string, string, string, (bin: string) => string][] = [
      ['/:bin.js', 'text/javascript; charset=utf-8', JS, (b) => `/${b}.js`],
      ['/:bin.css', 'text/css; charset=utf-8', CSS, (b) => `/${b}.css`],
      ['/:bin/1.js', 'text/javascript; charset=utf-8', 'one()', (b) => `/${b}/1.js`],
      ['/:bin/1.css', 'text/css; charset=utf-8', 'p{}', (b) => `/${b}/1.css`],
      ['/:bin/latest.js', 'text/javascript; charset=utf-8', JS, (b) => `/${b}/latest.js`],
    ];
    for (const [name, type, body, path] of routes) {
      it(`${name} answers that panel as ${type.split(';')[0]}`, async () => {
        const res = await server.fetch(path(bin));
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.equal(type);
        expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
        expect(await res.text()).to.equal(body);
      });
    }

    it('/:bin/2/source answers the assembled page, without edit link, as plain text', async () => {
      const res = await server.fetch(`/${bin}/2/source`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
      expect(res.headers.get('content-disposition')).to.equal(null);
      expect(await res.text()).to.equal(expectedOutput(bin));
    });

    it('/:bin/2/download answers the assembled page as an html attachment', async () => {
      const res = await server.fetch(`/${bin}/2/download`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(res.headers.get('content-disposition')).to.equal(`attachment; filename="${bin}.2.html"`);
      expect(await res.text()).to.equal(expectedOutput(bin));
    });
  });

  describe('the editor', () => {
    it('/ is the editor with the starter template and no bin', async () => {
      const res = await server.fetch('/');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(await editorData(res)).to.deep.equal({
        root: './',
        bin: null,
        rev: null,
        panels: {
          html: '<!DOCTYPE html>\n<html>\n<head>\n  <meta charset="utf-8">\n  <meta name="viewport" content="width=device-width">\n  <title>snippetkit</title>\n</head>\n<body>\n\n</body>\n</html>\n',
          css: '',
          javascript: '',
        },
        settings: {},
        revisions: [],
      });
    });

    it('/:bin/edit loads the latest revision and lists every revision, newest first', async () => {
      const data = await editorData(await server.fetch(`/${bin}/edit`));
      const [two, one] = [await server.store.get(bin, 2), await server.store.get(bin, 1)];
      expect(data).to.deep.equal({
        root: '../',
        bin,
        rev: 2,
        panels: { html: HTML, css: CSS, javascript: JS },
        settings: {},
        revisions: [
          { rev: 2, created: two!.created },
          { rev: 1, created: one!.created },
        ],
      });
    });

    it('/:bin/1/edit loads revision 1', async () => {
      const data = await editorData(await server.fetch(`/${bin}/1/edit`));
      expect([data.root, data.rev, data.panels]).to.deep.equal(['../../', 1, { html: '<p>one</p>', css: 'p{}', javascript: 'one()' }]);
    });

    it('loads the bundle and stylesheet relative to the page, so a proxy prefix keeps working', async () => {
      const page = await (await server.fetch(`/${bin}/1/edit`)).text();
      expect(page).to.match(/<link rel="stylesheet" href="\.\.\/\.\.\/static\/editor\.css\?v=[\w-]+">/);
      expect(page).to.match(/<script type="module" src="\.\.\/\.\.\/static\/editor\.js\?v=[\w-]+"><\/script>/);
    });

    it('previews in an iframe sandboxed without allow-same-origin', async () => {
      const page = await (await server.fetch('/')).text();
      expect(page).to.include('<iframe id="preview" title="Output" sandbox="allow-scripts allow-modals allow-forms allow-popups"></iframe>');
    });

    it('keeps a panel holding "</script>" inside the data element', async () => {
      const saved = await (await server.postForm('/api/save', { javascript: 'x = "</script><p>"' })).json();
      const data = await editorData(await server.fetch(`/${saved.url}/edit`));
      expect(data.panels.javascript).to.equal('x = "</script><p>"');
    });
  });

  describe('the editor\'s bundle', () => {
    const assets: [string, string][] = [
      ['/static/editor.js', 'text/javascript; charset=utf-8'],
      ['/static/editor.css', 'text/css; charset=utf-8'],
    ];
    for (const [path, type] of assets) {
      it(`serves ${path} as ${type.split(';')[0]}`, async () => {
        const res = await server.fetch(path);
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.equal(type);
        expect((await res.text()).length).to.be.greaterThan(1000);
      });
    }
  });

  describe('not found', () => {
    const missing: [string, (bin: string) => string][] = [
      ['an unknown bin', () => '/nosuchbin'],
      ['an unknown bin\'s editor', () => '/nosuchbin/edit'],
      ['an unknown bin\'s panel', () => '/nosuchbin.js'],
      ['an unknown revision', (b) => `/${b}/3`],
      ['an unknown revision\'s editor', (b) => `/${b}/3/edit`],
      ['an unknown revision\'s quiet page', (b) => `/${b}/3/quiet`],
      ['an unknown revision\'s panel', (b) => `/${b}/3.css`],
      ['an unknown revision\'s source', (b) => `/${b}/3/source`],
      ['an unknown revision\'s download', (b) => `/${b}/3/download`],
      ['a revision that is not a number', (b) => `/${b}/foo`],
      ['a reserved name', () => '/latest'],
      ['an id with characters no bin has', () => '/a.b'],
      ['a missing asset', () => '/static/nope.js'],
      ['a path below a bin that is no page', (b) => `/${b}/2/edit/more`],
    ];
    for (const [name, path] of missing) {
      it(`answers ${name} with the HTML 404 page`, async () => {
        const res = await server.fetch(path(bin));
        expect(res.status).to.equal(404);
        expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
        const page = await res.text();
        expect(page).to.include('<title>404 Not found · snippetkit</title>');
        expect(page).to.include('<p>There is no bin, revision or page at this address.</p>');
      });
    }

    it('links the 404 page back to the editor relative to its own path', async () => {
      const page = await (await server.fetch(`/${bin}/3/edit`)).text();
      expect(page).to.include('<p><a href="../../">Start a new bin</a></p>');
    });

    it('keeps API errors in JSON', async () => {
      const res = await server.fetch('/api/nosuchbin');
      expect(res.status).to.equal(404);
      expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
      expect(await res.json()).to.deep.equal({ error: 'not found' });
    });
  });
});

describe('bin pages on a server that needs a key', () => {
  let server: TestBinServer;
  before(async () => {
    server = await startBinServer(KEYED);
  });
  after(() => server.close());

  it('never puts the API key in the editor page', async () => {
    const saved = await (await server.postForm('/api/save', { html: 'x' }, { authorization: 'token sekrit-key' })).json();
    for (const path of ['/', `/${saved.url}/edit`, `/${saved.url}/1/edit`]) {
      const page = await (await server.fetch(path)).text();
      expect(page).to.not.include('sekrit-key');
    }
  });

  it('shows output pages without a key', async () => {
    const saved = await (await server.postForm('/api/save', { html: 'hello' }, { authorization: 'token sekrit-key' })).json();
    const res = await server.fetch(`/${saved.url}/quiet`);
    expect([res.status, await res.text()]).to.deep.equal([200, 'hello']);
  });
});

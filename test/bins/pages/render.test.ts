import { expect } from 'chai';
import { createCompiler } from '../../../src/bins/compile/compiler.js';
import { renderOutput, renderPanel } from '../../../src/bins/pages/render.js';
import type { StoredRevision } from '../../../src/bins/store/store.js';
import { assemble, type Panels } from '../../../src/shared/assemble.js';

const panels = (html: string, css = '', javascript = ''): Panels => ({ html, css, javascript });
const SCRIPT = (js: string) => `<script>\n${js}\n</script>\n`;
const STYLE = (css: string) => `<style>\n${css}\n</style>\n`;

describe('output assembly (src/shared/assemble.ts)', () => {
  describe('placeholders', () => {
    const cases: [string, Panels, string][] = [
      ['puts the javascript at %code% and the css at %css%', panels('<style>%css%</style><script>%code%</script>', 'p{}', 'x()'), '<style>p{}</style><script>x()</script>'],
      ['replaces every %code% and %css%', panels('%code%|%code%|%css%|%css%', 'c', 'j'), 'j|j|c|c'],
      ['leaves a placeholder found inside a panel as it is', panels('%code% %css%', 'a:"%code%"', 'b("%css%")'), 'b("%css%") a:"%code%"'],
      ['replaces %code% with nothing when the javascript is empty', panels('<script>%code%</script>'), '<script></script>'],
      ['keeps "$&" and "$1" in code as they are', panels('%code%', '', 'a.replace(/x/, "$&$1")'), 'a.replace(/x/, "$&$1")'],
    ];
    for (const [name, input, output] of cases) it(name, () => expect(assemble(input)).to.equal(output));
  });

  describe('javascript without %code%', () => {
    const cases: [string, string, string][] = [
      ['goes in a script just before </body>', '<body><p>a</p></body></html>', `<body><p>a</p>${SCRIPT('x()')}</body></html>`],
      ['goes before the last </body> when there are two', '<body><!-- </body> --></body>', `<body><!-- </body> -->${SCRIPT('x()')}</body>`],
      ['finds </BODY> in any case', '<BODY>a</BODY>', `<BODY>a${SCRIPT('x()')}</BODY>`],
      ['goes at the end when there is no </body>', '<p>a</p>', `<p>a</p>${SCRIPT('x()')}`],
    ];
    for (const [name, html, output] of cases) it(name, () => expect(assemble(panels(html, '', 'x()'))).to.equal(output));

    it('is left out when it is only whitespace', () => {
      expect(assemble(panels('<body></body>', '', ' \n\t'))).to.equal('<body></body>');
    });

    it('cannot end its script element early with "</script>"', () => {
      expect(assemble(panels('', '', 'a = "</script><b>"; b = "</SCRIPT>"'))).to.equal(
        SCRIPT('a = "<\\/script><b>"; b = "<\\/SCRIPT>"'),
      );
    });

    it('cannot move the insertion point by mentioning </body> itself', () => {
      expect(assemble(panels('<body>%css%</body>', 'x', 'y = "</body>"'))).to.equal(`<body>x${SCRIPT('y = "</body>"')}</body>`);
    });
  });

  describe('css without %css%', () => {
    const cases: [string, string, string][] = [
      ['goes in a style just before the last </head>', '<head><title>t</title></head><body></body>', `<head><title>t</title>${STYLE('p{}')}</head><body></body>`],
      ['goes after </title> when there is no </head>', '<title>t</title><p>a</p>', `<title>t</title>${STYLE('p{}')}<p>a</p>`],
      ['goes first when there is neither', '<p>a</p>', `${STYLE('p{}')}<p>a</p>`],
      ['goes after the doctype, never before it', '<!DOCTYPE html><p>a</p>', `<!DOCTYPE html>${STYLE('p{}')}<p>a</p>`],
    ];
    for (const [name, html, output] of cases) it(name, () => expect(assemble(panels(html, 'p{}'))).to.equal(output));

    it('is left out when it is empty', () => {
      expect(assemble(panels('<head></head>', '  '))).to.equal('<head></head>');
    });

    it('cannot end its style element early with "</style>"', () => {
      expect(assemble(panels('', 'p::after{content:"</style>"}'))).to.equal(STYLE('p::after{content:"<\\/style>"}'));
    });
  });

  describe('empty panels', () => {
    it('gives an empty page for a bin with nothing in it', () => {
      expect(assemble(panels(''))).to.equal('');
    });

    it('gives a page of just the script for a javascript-only bin', () => {
      expect(assemble(panels('', '', 'alert(1)'))).to.equal(SCRIPT('alert(1)'));
    });
  });

  describe('edit link and comment', () => {
    it('puts the edit link script before </body>, after the bin\'s own script', () => {
      const page = assemble(panels('<body></body>', '', 'x()'), { editUrl: 'abc/edit' });
      expect(page).to.match(/^<body><script>\nx\(\)\n<\/script>\n<script>\(function \(\) \{\n[^]*a\.href = "abc\/edit";[^]*<\/script>\n<\/body>$/);
    });

    it('has no edit link without an edit URL (quiet)', () => {
      expect(assemble(panels('<body></body>'), {})).to.equal('<body></body>');
    });

    it('escapes "<" in the edit URL', () => {
      expect(assemble(panels(''), { editUrl: '</script>' })).to.include('a.href = "\\u003c/script>";');
    });

    it('puts the comment naming the bin after the charset meta', () => {
      const html = '<!DOCTYPE html><head><meta name="x"><meta charset="utf-8"><title>t</title></head>';
      expect(assemble(panels(html), { label: 'abc/2' })).to.equal(
        '<!DOCTYPE html><head><meta name="x"><meta charset="utf-8">\n<!-- Made with snippetkit: abc/2 --><title>t</title></head>',
      );
    });

    it('puts the comment after <head> when there is no charset meta', () => {
      expect(assemble(panels('<html><head lang="en"><title>t</title></head>'), { label: 'abc/2' })).to.equal(
        '<html><head lang="en">\n<!-- Made with snippetkit: abc/2 --><title>t</title></head>',
      );
    });

    it('runs the prelude before the bin\'s head scripts', () => {
      expect(assemble(panels('<head><meta charset="utf-8"><script>a()</script></head>'), { prelude: 'p()' })).to.equal(
        '<head><meta charset="utf-8">\n<script>p()</script><script>a()</script></head>',
      );
    });
  });
});

describe('rendering a stored revision (src/bins/pages/render.ts)', () => {
  const revision: StoredRevision = {
    bin: 'abc', rev: 2, html: '<meta charset="utf-8"><body></body>', css: 'p{}', javascript: 'x()', settings: {}, created: '2024-01-01T00:00:00.000Z',
  };

  const compiler = createCompiler();
  after(() => compiler.close());

  it('names the bin and revision in the comment and assembles the panels', async () => {
    expect(await renderOutput(revision, compiler)).to.equal(
      `${STYLE('p{}')}<meta charset="utf-8">\n<!-- Made with snippetkit: abc/2 --><body>${SCRIPT('x()')}</body>`,
    );
  });

  it('gives the css or javascript panel as stored', async () => {
    const names = ['css', 'javascript'] as const;
    expect(await Promise.all(names.map((name) => renderPanel(revision, name, compiler)))).to.deep.equal(['p{}', 'x()']);
  });
});

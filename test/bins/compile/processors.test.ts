import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createCompiler } from '../../../src/bins/compile/compiler.js';
import { processorsOf } from '../../../src/shared/processors.js';
import { OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';

/** POST /api/compile. */
async function compile(server: TestBinServer, processor: string, source: string) {
  const res = await server.fetch('/api/compile', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ processor, source }),
  });
  return { status: res.status, body: await res.json() };
}

describe('preprocessors', () => {
  let server: TestBinServer;
  before(async () => {
    server = await startBinServer(OPEN);
  });
  after(() => server.close());

  describe('POST /api/compile, per compiler', () => {
    const cases: [string, string, string, string, object][] = [
      // processor, good source, its output (a part of it), broken source, the error
      ['markdown', '# Hi *there*', '<h1>Hi <em>there</em></h1>', '', {}],
      ['pug', 'ul\n  each x in [1, 2]\n    li= x', '<ul><li>1</li><li>2</li></ul>', 'div\n  p(',
        { error: 'The end of the string reached with no closing bracket ) found.', line: 2, column: 5 }],
      ['less', '@c: red;\np { color: @c; }', 'p {\n  color: red;\n}', 'p {\n  color: @nope;\n}',
        { error: 'variable @nope is undefined', line: 2, column: 10 }],
      ['coffeescript', 'double = (a) -> a * 2', 'double = function(a) {\n  return a * 2;\n};', 'x = (\n',
        { error: 'missing )', line: 1, column: 5 }],
      ['typescript', 'const n: number = 1;\nenum E { A }', 'const n = 1;\nvar E;', 'let a = 1;\nlet x: = 2;',
        { error: 'Type expected.', line: 2, column: 8 }],
      ['scss', '$c: red;\n.a { color: $c; .b { margin: 1px + 2px; } }', '.a .b {\n  margin: 3px;\n}',
        '.a {\n  color: $nope;\n}', { error: 'Undefined variable.', line: 2, column: 10 }],
      ['stylus', 'c = red\n.a\n  color c\n  .b\n    margin 1px + 2px', '.a .b {\n  margin: 3px;\n}',
        '.a\n  color: red\n  b: (1px\n', { error: 'expected ")", got "outdent"', line: 4, column: 1 }],
      ['jsx', 'const n: number = 1;\nconst el = <p className="x">{n}</p>;',
        'const el = React.createElement("p", { className: "x" }, n);', 'const el = <p>hi</b>;',
        { error: "Expected corresponding JSX closing tag for 'p'.", line: 1, column: 19 }],
    ];
    for (const [processor, good, output, broken, error] of cases) {
      it(`compiles good ${processor}`, async () => {
        const { status, body } = await compile(server, processor, good);
        expect(status).to.equal(200);
        expect(body.code).to.include(output);
      });
      if (broken === '') continue;
      it(`answers broken ${processor} with 422, the message, line and column`, async () => {
        expect(await compile(server, processor, broken)).to.deep.equal({ status: 422, body: error });
      });
    }

    it('gives markdown that is not quite markdown back as html, without failing', async () => {
      const { status, body } = await compile(server, 'markdown', '# [unclosed\n<div>\n```\nnever closed');
      expect(status).to.equal(200);
      expect(body.code).to.include('<h1>[unclosed</h1>');
    });

    it('passes a panel\'s own language through as it is', async () => {
      expect(await compile(server, 'css', 'p{}')).to.deep.equal({ status: 200, body: { code: 'p{}' } });
    });

    const bad: [string, object, number, object][] = [
      ['an unknown processor', { processor: 'sass', source: '' }, 400,
        { error: 'processor must be one of html, markdown, pug, css, less, scss, stylus, javascript, coffeescript, typescript, jsx', field: 'processor' }],
      ['a missing source', { processor: 'less' }, 400, { error: 'source must be a string', field: 'source' }],
      ['a source over the size limit', { processor: 'less', source: 'a'.repeat(300 * 1024) }, 422,
        { error: 'the source is over 256 KB, too large to compile' }],
    ];
    for (const [what, body, status, error] of bad) {
      it(`refuses ${what} with ${status}`, async () => {
        const res = await server.fetch('/api/compile', { method: 'POST', body: JSON.stringify(body) });
        expect([res.status, await res.json()]).to.deep.equal([status, error]);
      });
    }

    it('refuses a body that is not JSON with 400', async () => {
      const res = await server.fetch('/api/compile', { method: 'POST', body: 'processor=less' });
      expect([res.status, await res.json()]).to.deep.equal([400, { error: 'malformed JSON body' }]);
    });
  });

  describe('hostile snippets', () => {
    it('stops a Pug loop at the time limit and keeps serving', async () => {
      const started = Date.now();
      const { status, body } = await compile(server, 'pug', '- while (true) {}\np never');
      expect(status).to.equal(422);
      expect(body.error).to.equal('took longer than 1000 ms and was stopped');
      // 5x the limit: a loaded machine is slow, and a stopped loop should not take much past the limit.
      expect(Date.now() - started).to.be.below(5000);
      expect((await server.fetch('/status')).status).to.equal(200);
      expect((await compile(server, 'pug', 'p after')).body).to.deep.equal({ code: '<p>after</p>' });
    });

    it('fails a LESS mixin that recurses without end, and keeps serving', async () => {
      const { status, body } = await compile(server, 'less', '.m(@n) { .m(@n + 1); }\np { .m(1); }');
      expect(status).to.equal(422);
      expect(body.error).to.be.a('string');
      expect((await compile(server, 'less', 'p { a: b }')).body).to.deep.equal({ code: 'p {\n  a: b;\n}\n' });
    });

    it('kills a child that overruns the time limit inside a compiler, and starts a new one', async function () {
      // Killing and starting a child is slow on a loaded machine.
      this.timeout(60_000);
      // Quadratic inside LESS: range(60000) takes several seconds idle; no vm timeout reaches it.
      const { status, body } = await compile(server, 'less', 'p { each(range(60000), { a-@{value}: @value; }); }');
      expect([status, body]).to.deep.equal([422, { error: 'took longer than 1000 ms and was stopped' }]);
      const after = await compile(server, 'markdown', '*a*');
      expect(after).to.deep.equal({ status: 200, body: { code: '<p><em>a</em></p>\n' } });
    });

    it('gives Pug no process and no require', async () => {
      const leak = await compile(server, 'pug', 'p= process.env.HOME');
      expect(leak).to.deep.equal({ status: 422, body: { error: "Cannot read properties of undefined (reading 'env')", line: 1 } });
      const required = await compile(server, 'pug', "- const fs = require('fs')\np= fs.readFileSync('/etc/passwd')");
      expect(required.status).to.equal(422);
      expect(required.body.error).to.equal('require is not a function');
    });

    it('refuses a Pug include or extends of a local file, through the Files gate', async () => {
      const { status, body } = await compile(server, 'pug', 'include /etc/passwd');
      expect(status).to.equal(422);
      expect(body.error).to.not.include('root:');
      expect(body).to.deep.equal({ error: "'/etc/passwd.pug' was not read: reading files is not allowed" });
      expect((await compile(server, 'pug', 'extends ../layout.pug\nblock a')).body).to.deep.equal({
        error: "'../layout.pug' was not read: reading files is not allowed",
      });
    });

    it('refuses a LESS import of a local file', async () => {
      expect(await compile(server, 'less', '@import (inline) "/etc/passwd";')).to.deep.equal({
        status: 422, body: { error: "'/etc/passwd' was not read: reading files is not allowed", line: 1, column: 1 },
      });
    });

    it('refuses LESS @plugin, which would load JavaScript', async () => {
      expect(await compile(server, 'less', 'p { a: b }\n  @plugin "plugin";')).to.deep.equal({
        status: 422, body: { error: '@plugin is not allowed', line: 2, column: 3 },
      });
    });
  });

  describe('SCSS, Stylus and JSX read no files and load no code', () => {
    const refusals: [string, string, object][] = [
      ['scss', '@use "secrets";', { error: "'secrets' was not loaded: reading files is not allowed", line: 1, column: 1 }],
      ['scss', '.a { b: c; }\n@import "/etc/passwd";',
        { error: "'/etc/passwd' was not loaded: reading files is not allowed", line: 2, column: 9 }],
      ['scss', '@use "sass:meta";\n.a { @include meta.load-css("/etc/hosts"); }',
        { error: "'/etc/hosts' was not loaded: reading files is not allowed", line: 2, column: 6 }],
      ['stylus', '@import "secrets"', { error: "@import 'secrets' was not loaded: reading files is not allowed", line: 1, column: 9 }],
      ['stylus', '@require "/etc/passwd"',
        { error: "@require '/etc/passwd' was not loaded: reading files is not allowed", line: 1, column: 10 }],
      ['stylus', '.a\n  b json("/etc/passwd")', { error: "json('/etc/passwd') was not read: reading files is not allowed", line: 2, column: 5 }],
      ['stylus', '.a\n  width image-size("/etc/passwd")',
        { error: "image-size('/etc/passwd') was not read: reading files is not allowed", line: 2, column: 9 }],
      ['stylus', 'use("plugin.js")', { error: "use('plugin.js') was not loaded: reading files is not allowed", line: 1, column: 1 }],
      // Hole 8 of issue 23: embedurl() read any file of a known image or font type the child could reach.
      ['stylus', '.a\n  b embedurl("/etc/passwd")',
        { error: "embedurl('/etc/passwd') was not read: reading files is not allowed", line: 2, column: 5 }],
      ['stylus', '.a\n  b embedurl("../../icon.png#x")',
        { error: "embedurl('../../icon.png#x') was not read: reading files is not allowed", line: 2, column: 5 }],
    ];
    for (const [processor, source, error] of refusals) {
      it(`refuses ${processor} ${JSON.stringify(source.split('\n').at(-1))}`, async () => {
        expect(await compile(server, processor, source)).to.deep.equal({ status: 422, body: error });
      });
    }

    it('refuses a Stylus embedurl() of an image beside the package, which the child may read', async function () {
      // playwright-core (a dev dependency) ships a PNG in node_modules, which the permission model lets the child read.
      const main = createRequire(import.meta.url).resolve('playwright-core');
      const png = join(main.slice(0, main.lastIndexOf('/playwright-core/') + '/playwright-core'.length), 'lib/server/chromium/appIcon.png');
      if (!existsSync(png)) this.skip();
      const base64 = readFileSync(png).toString('base64').slice(0, 40);
      const result = await compile(server, 'stylus', `.a\n  b embedurl("${png}")`);
      expect(JSON.stringify(result)).to.not.include(base64);
      expect(result).to.deep.equal({
        status: 422,
        body: { error: `embedurl('${png}') was not read: reading files is not allowed`, line: 2, column: 5 },
      });
    });

    it('leaves URLs for the browser: Stylus url() and embedurl() of a URL, LESS data-uri() it cannot read', async () => {
      const styl = await compile(server, 'stylus', '.a\n  b url("/etc/passwd")\n  c embedurl("https://cdn.example/a.png")');
      expect(styl.body.code).to.equal('.a {\n  b: url("/etc/passwd");\n  c: url("https://cdn.example/a.png");\n}\n');
      const lessOut = await compile(server, 'less', '.a { b: data-uri("/etc/passwd"); }');
      expect(lessOut.body.code).to.equal('.a {\n  b: url("/etc/passwd");\n}\n');
    });

    it('keeps plain CSS imports of URLs in SCSS and Stylus output, for the browser to load', async () => {
      const scss = await compile(server, 'scss', '@import url("https://cdn.example/a.css");\n.a { b: c; }');
      expect(scss.body.code).to.include('@import url("https://cdn.example/a.css");');
      const styl = await compile(server, 'stylus', '@import "https://cdn.example/a.css"\n.a\n  b c');
      expect(styl.body.code).to.include('@import "https://cdn.example/a.css";');
    });

    it('compiles JSX to React.createElement, or to the function a @jsx comment names', async () => {
      const react = await compile(server, 'jsx', 'const a = <b/>;');
      expect(react.body.code).to.include('React.createElement("b", null)');
      const preact = await compile(server, 'jsx', '/** @jsx h */\nconst a = <b/>;');
      expect(preact.body.code).to.include('h("b", null)');
    });
  });

  describe('output pages', () => {
    async function saveBin(fields: Record<string, string>): Promise<string> {
      const res = await server.postForm('/api/save', fields);
      return (await res.json()).url;
    }

    it('render the compiled panels', async () => {
      const bin = await saveBin({
        html: '# Title', css: '@c: blue; h1 { color: @c; }', javascript: 'x = 1',
        settings: JSON.stringify({ processors: { html: 'markdown', css: 'less', javascript: 'coffeescript' } }),
      });
      const page = await (await server.fetch(`/${bin}`)).text();
      expect(page).to.include('<h1>Title</h1>').and.include('color: blue;').and.include('x = 1;');
      // The API still gives the source.
      expect((await (await server.fetch(`/api/${bin}`)).json()).html).to.equal('# Title');
    });

    it('render SCSS, Stylus and JSX panels, by their names or JS Bin\'s', async () => {
      const bin = await saveBin({
        html: '<div id="r"></div>', css: '$c: blue;\nh1 { color: $c; }', javascript: 'const h = <h1>hi</h1>;',
        settings: JSON.stringify({ processors: { css: 'scss', javascript: 'tsx' } }),
      });
      const page = await (await server.fetch(`/${bin}`)).text();
      expect(page).to.include('h1 {\n  color: blue;\n}').and.include('React.createElement("h1", null, "hi")');
      const styl = await saveBin({ css: 'a\n  b c', settings: JSON.stringify({ processors: { css: 'styl' } }) });
      expect(await (await server.fetch(`/${styl}.css`)).text()).to.equal('a {\n  b: c;\n}\n');
    });

    it('serve compiled .js and .css panels, and .html as the compiled page', async () => {
      const bin = await saveBin({
        html: 'p hi', css: 'a { b: c }', javascript: 'let n: number = 2',
        settings: JSON.stringify({ processors: { html: 'jade', javascript: 'typescript' } }),
      });
      const texts = await Promise.all(['css', 'js'].map(async (ext) => (await server.fetch(`/${bin}.${ext}`)).text()));
      expect(texts).to.deep.equal(['a { b: c }', 'let n = 2;\n']);
      // .html is the whole output page, its html compiled too.
      expect(await (await server.fetch(`/${bin}.html`)).text()).to.include('<p>hi</p>').and.include('let n = 2;');
    });

    it('show a compile error as line, column and message', async () => {
      const bin = await saveBin({ html: '<p>page</p>', javascript: 'x = (', settings: JSON.stringify({ processors: { javascript: 'coffeescript' } }) });
      const res = await server.fetch(`/${bin}`);
      expect(res.status).to.equal(200);
      const page = await res.text();
      expect(page).to.include('box.textContent = "CoffeeScript error on line 1, column 5: missing )"');
      expect(page).to.include('<p>page</p>');
      expect(await (await server.fetch(`/${bin}.js`)).text()).to.equal('/* CoffeeScript error on line 1, column 5: missing ) */\n');
    });
  });

  it('reads JS Bin\'s processor names and ignores unknown ones', () => {
    expect(processorsOf({ processors: { html: 'jade', css: 'sass', javascript: 'CoffeeScript' } })).to.deep.equal({
      html: 'pug', css: 'css', javascript: 'coffeescript',
    });
    expect(processorsOf({})).to.deep.equal({ html: 'html', css: 'css', javascript: 'javascript' });
    expect(processorsOf({ processors: { css: 'styl', javascript: 'tsx' } })).to.include({ css: 'stylus', javascript: 'jsx' });
    expect(processorsOf({ processors: { css: 'SCSS', javascript: 'JSX' } })).to.include({ css: 'scss', javascript: 'jsx' });
  });

  it('caches by content: a second render of the same source does not compile again', async () => {
    const compiler = createCompiler();
    try {
      const cold = await compiler.compile('less', 'p { a: b }');
      const warm = await compiler.compile('less', 'p { a: b }');
      expect(warm).to.deep.equal(cold);
      expect(compiler.stats()).to.deep.equal({ compiles: 1, hits: 1 });
    } finally {
      compiler.close();
    }
  });
});

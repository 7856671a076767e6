import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join, relative as relativeTo } from 'node:path';
import { compileScss, compileStylus, type StyleError } from '../../../src/bins/compile/styles.js';
import { tempDir } from '../../helpers/temp.js';

// The SCSS and Stylus fences themselves, in this process: no permission model behind them here, so a
// file they let through would be read. Each file exists and is readable; each must still be refused.
describe('SCSS and Stylus ask the Files gate for every file, and a bin may read none', () => {
  let temp: ReturnType<typeof tempDir>;
  let png: string;
  before(() => {
    temp = tempDir();
    png = join(temp.dir, 'pixel.png');
    writeFileSync(png, Buffer.from('89504e470d0a1a0a', 'hex'));
    writeFileSync(join(temp.dir, 'vars.json'), '{"secret": "red"}');
    writeFileSync(join(temp.dir, 'part.styl'), '.secret\n  a b\n');
    writeFileSync(join(temp.dir, '_part.scss'), '.secret { a: b; }\n');
  });
  after(() => temp.cleanup());

  const failure = (compile: () => string): StyleError => {
    try {
      return { message: `compiled: ${compile()}` };
    } catch (err) {
      return err as StyleError;
    }
  };
  const refused = (what: string) => `${what}: reading files is not allowed`;

  it('refuses a Stylus embedurl() of a readable image (hole 8 of issue 23), relative or absolute', () => {
    expect(failure(() => compileStylus(`.a\n  b embedurl("${png}")`))).to.deep.equal({
      message: refused(`embedurl('${png}') was not read`),
      line: 2,
      column: 5,
    });
    // Stylus looks a relative path up from the working folder.
    const relative = relativeTo(process.cwd(), png);
    expect(failure(() => compileStylus(`.a\n  b embedurl("${relative}")`)).message).to.equal(
      refused(`embedurl('${relative}') was not read`),
    );
  });

  it("refuses Stylus json(), image-size(), use() and @import of readable files, naming each", () => {
    const cases: [string, string][] = [
      [`.a\n  b json("${join(temp.dir, 'vars.json')}")`, `json('${join(temp.dir, 'vars.json')}') was not read`],
      [`.a\n  b image-size("${png}")`, `image-size('${png}') was not read`],
      [`use("${join(temp.dir, 'vars.json')}")`, `use('${join(temp.dir, 'vars.json')}') was not loaded`],
      [`@import "${join(temp.dir, 'part.styl')}"`, `@import '${join(temp.dir, 'part.styl')}' was not loaded`],
    ];
    for (const [source, what] of cases) expect(failure(() => compileStylus(source)).message).to.equal(refused(what));
  });

  it('refuses an SCSS @use and @import of a readable file', () => {
    const part = join(temp.dir, '_part.scss');
    for (const source of [`@use "${part}";`, `@import "${part}";`, `@use "file://${part}";`]) {
      const url = source.split('"')[1]!;
      expect(failure(() => compileScss(source)).message).to.equal(refused(`'${url}' was not loaded`));
    }
  });

  it('leaves a URL with a scheme to the browser, as Stylus does', () => {
    expect(compileStylus('.a\n  b embedurl("https://cdn.example/a.png")')).to.equal(
      '.a {\n  b: url("https://cdn.example/a.png");\n}\n',
    );
  });
});

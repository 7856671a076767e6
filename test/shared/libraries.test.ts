import { expect } from 'chai';
import { LIBRARIES } from '../../src/shared/library-list.js';
import { libraryInsertion, searchLibraries, urlLibrary, type Library } from '../../src/shared/libraries.js';

// The editor's "Add library" list (src/shared/libraries.ts) and where its tags go in the HTML pane.
describe('the Add library list', () => {
  const jquery = LIBRARIES.find((library) => library.id === 'jquery')!;
  const bootstrap = LIBRARIES.find((library) => library.id === 'bootstrap')!;
  const JQUERY = '<script src="https://cdn.jsdelivr.net/npm/jquery@3.7.1/dist/jquery.min.js"></script>';
  const BOOTSTRAP_CSS = '<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/bootstrap@5.3.9/dist/css/bootstrap.min.css">';
  const BOOTSTRAP_JS = '<script src="https://cdn.jsdelivr.net/npm/bootstrap@5.3.9/dist/js/bootstrap.bundle.min.js"></script>';

  it('names every library with its exact version on jsDelivr', () => {
    for (const library of LIBRARIES) {
      for (const tag of library.tags) {
        expect(tag).to.match(/^<(script (defer )?src|link rel="stylesheet" href)="https:\/\/cdn\.jsdelivr\.net\/npm\/(@[a-z]+\/)?[a-z0-9.-]+@\d+\.\d+\.\d+\/[^"]+"/);
      }
      // The version a name shows is the one its tags load (three.js names its release r149).
      const version = /\d+\.\d+\.\d+/.exec(library.name)?.[0];
      if (version) expect(library.tags[library.tags.length - 1]).to.include(`@${version}/`);
    }
    expect(new Set(LIBRARIES.map((library) => library.id)).size).to.equal(LIBRARIES.length);
    expect(LIBRARIES.length).to.be.at.least(50);
  });

  it('finds libraries by name, id or keyword, every word, names starting with the first word first', () => {
    const names = (query: string) => searchLibraries(LIBRARIES, query).map((library) => library.id);
    expect(names('chart')[0]).to.equal('chartjs');
    expect(names('chart')).to.include('echarts');
    expect(names('CSS reset')).to.deep.equal(['normalize']);
    expect(names('')).to.have.length(LIBRARIES.length);
    expect(names('no such thing')).to.deep.equal([]);
  });

  const urls: { typed: string; expected: string | ReturnType<typeof urlLibrary> }[] = [
    { typed: 'https://x.test/a.css', expected: '<link rel="stylesheet" href="https://x.test/a.css">' },
    { typed: 'https://x.test/A.CSS?v=1', expected: '<link rel="stylesheet" href="https://x.test/A.CSS?v=1">' },
    { typed: 'https://x.test/a.css.js', expected: '<script src="https://x.test/a.css.js"></script>' },
    { typed: '  https://x.test/lib  ', expected: '<script src="https://x.test/lib"></script>' },
    { typed: 'https://x.test/"><script>.js', expected: '<script src="https://x.test/%22%3E%3Cscript%3E.js"></script>' },
    { typed: 'http://x.test/a.js', expected: { refused: 'Only https:// addresses can be added.' } },
    { typed: 'javascript:alert(1)', expected: { refused: 'Only https:// addresses can be added.' } },
    { typed: 'JavaScript:alert(1)', expected: { refused: 'Only https:// addresses can be added.' } },
    { typed: 'data:text/css,a', expected: { refused: 'Only https:// addresses can be added.' } },
    { typed: 'jquery', expected: undefined },
    { typed: 'react dom', expected: undefined },
  ];
  for (const { typed, expected } of urls) {
    it(`reads the typed ${JSON.stringify(typed)} as ${typeof expected === 'string' ? expected : JSON.stringify(expected)}`, () => {
      const result = urlLibrary(typed);
      if (typeof expected === 'string') expect(result && 'library' in result ? result.library.tags : result).to.deep.equal([expected]);
      else expect(result).to.deep.equal(expected);
    });
  }

  const cases: { name: string; html: string; library: Library; expected: string }[] = [
    {
      name: 'goes on its own line before an indented </head>, one step further in',
      html: '<html>\n  <head>\n    <title>t</title>\n  </head>\n</html>',
      library: jquery,
      expected: `<html>\n  <head>\n    <title>t</title>\n    ${JQUERY}\n  </head>\n</html>`,
    },
    {
      name: 'finds </HEAD> in any case',
      html: '<HEAD>\n</HEAD>',
      library: jquery,
      expected: `<HEAD>\n  ${JQUERY}\n</HEAD>`,
    },
    {
      name: 'goes straight before a </head> that shares its line',
      html: '<head><title>t</title></head><body></body>',
      library: jquery,
      expected: `<head><title>t</title>${JQUERY}</head><body></body>`,
    },
    {
      name: 'goes at the top of HTML without a head',
      html: '<p>hi</p>',
      library: bootstrap,
      expected: `${BOOTSTRAP_CSS}\n${BOOTSTRAP_JS}\n<p>hi</p>`,
    },
    {
      name: 'adds only the tags not there yet',
      html: `${BOOTSTRAP_CSS}\n<p>hi</p>`,
      library: bootstrap,
      expected: `${BOOTSTRAP_JS}\n${BOOTSTRAP_CSS}\n<p>hi</p>`,
    },
  ];
  for (const { name, html, library, expected } of cases) {
    it(name, () => {
      const insertion = libraryInsertion(html, library)!;
      expect(html.slice(0, insertion.at) + insertion.text + html.slice(insertion.at)).to.equal(expected);
    });
  }

  it('adds nothing when every tag is there already', () => {
    expect(libraryInsertion(`<head>${JQUERY}</head>`, jquery)).to.equal(undefined);
  });
});

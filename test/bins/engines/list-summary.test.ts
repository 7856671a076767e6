import { expect } from 'chai';
import { listSummary } from '../../../src/bins/engines/list-summary.js';

const page = (head: string, body: string) => `<!DOCTYPE html>\n<html>\n<head>\n${head}\n</head>\n<body>\n${body}\n</body>\n</html>`;

describe("a bin's summary on the list", () => {
  const cases: { name: string; html: string; javascript?: string; css?: string; summary: string }[] = [
    { name: "the page's title", html: page('<title>Tip calculator</title>', '<h1>Tips</h1><p>Bill</p>'), summary: 'Tip calculator' },
    { name: 'a title with entities, decoded', html: page('<title>Fish &amp; chips &#8212; &lt;3</title>', ''), summary: 'Fish & chips — <3' },
    { name: "the first heading when the title is the starter's", html: page('<title>snippetkit</title>', '<p>intro</p><h2>Second <em>thing</em></h2><h1>Later</h1>'), summary: 'Second thing' },
    { name: "the first heading when the title is JS Bin's", html: page('<title>JS Bin</title>', '<h3 class="x">Small</h3>'), summary: 'Small' },
    { name: 'no h4 to h6: the first line of text instead', html: page('', '<h4>Minor</h4><p>Text</p>'), summary: 'Minor' },
    { name: 'the first line of text, not the text run together', html: page('<title>snippetkit</title>', '<div>\n  <p>First paragraph</p>\n  <p>Second paragraph</p>\n</div>'), summary: 'First paragraph' },
    { name: 'a line ended by <br>', html: '<p>one<br>two</p>', summary: 'one' },
    { name: 'inline markup kept within its line', html: '<p>Hello <b>bold</b> world</p><p>next</p>', summary: 'Hello bold world' },
    { name: 'no script, style or comment text', html: page('<style>h1{}</style>', '<!-- <h1>Not this</h1> --><script>let h = "<h1>nor this</h1>"</script><p>Shown</p>'), summary: 'Shown' },
    { name: 'the javascript\'s first line without html', html: '', javascript: '\n\n  const a = 1;\nconst b = 2;', summary: 'const a = 1;' },
    { name: "the css's first line without html or javascript", html: '   ', css: 'body {\n  color: red;\n}', summary: 'body {' },
    { name: 'nothing at all', html: '', summary: '' },
  ];
  for (const c of cases) {
    it(`is ${c.name}`, () => {
      expect(listSummary(c.html, c.javascript ?? '', c.css ?? '')).to.equal(c.summary);
    });
  }

  it('is cut to 255 characters, with an ellipsis', () => {
    const summary = listSummary(`<title>${'x'.repeat(300)}</title>`, '', '');
    expect([summary.length, summary.endsWith('x…')]).to.deep.equal([255, true]);
  });

  it('keeps markup in a title as text, for the page to escape', () => {
    expect(listSummary('<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>', '', '')).to.equal('<script>alert(1)</script>');
  });
});

import { expect } from 'chai';
import { findJsonError } from '../../src/shared/json-check.js';

// The page's JSON check (src/shared/json-check.ts) runs in the browser; it needs no DOM.
describe("the page's JSON check", () => {
  const texts = [
    '', ' ', '{}', '[]', '{"a":1}', '{"a":1,}', '[1,]', '[1 2]', '{a:1}', "{'a':1}", '"x', '"a\nb"', '"\\q"',
    '"\\u12"', '"\\u12ab"', '01', '-', '1.', '1e', '1e+5', '-0.5E-3', 'tru', 'true', 'null x', '{"a" 1}', '[[[]]]',
    '{"a":{"b":[1,{"c":null}]}}', '\t[1]\n', 'NaN', '+1', '[1,2', '{"a":1', '"\u2028"', '[1]]',
  ];
  for (const text of texts) {
    it(`agrees with JSON.parse on ${JSON.stringify(text)}`, () => {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(findJsonError(text)).to.satisfy((error: unknown) => (error === undefined) === valid);
    });
  }

  it('gives the offset of the first error and what was expected there', () => {
    expect(findJsonError('{\n  "a": 1,\n  "b" 2\n}')).to.deep.equal({ pos: 18, message: "expected ':' but found '2'" });
    expect(findJsonError('[1,')).to.deep.equal({ pos: 3, message: 'expected a value but the text ends' });
    expect(findJsonError('{"a": "open')).to.deep.equal({ pos: 6, message: 'this string is never closed' });
  });
});

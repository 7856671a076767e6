import { expect } from 'chai';
import { callPath, fetchCall, MAX_MOCK_JSON, mockableJson } from '../../src/shared/endpoint-call.js';

// What the editor's Mocks pane writes into a bin, and which selections it offers as mocks.
describe('a call of a mock endpoint, as the Mocks pane writes it', () => {
  const paths: [string, string][] = [
    ['users', 'users'],
    ['users/:id', 'users/1'],
    ['users/:userId/posts/:postId', 'users/1/posts/1'],
    ['posts/:id?', 'posts'],
    ['files/*', 'files/1'],
    ['/a/b/', 'a/b'],
  ];
  for (const [route, path] of paths) {
    it(`calls the route ${route} at ${path}`, () => expect(callPath(route)).to.equal(path));
  }

  it('writes one await line inside an async function', () => {
    expect(fetchCall('/endpoint/users/1', ['GET'], { inAsync: true, language: 'javascript' })).to.equal(
      "const res = await fetch('/endpoint/users/1');",
    );
  });

  it('wraps the line in an async arrow run at once elsewhere, indenting the lines after the first', () => {
    expect(fetchCall('/endpoint/users', null, { inAsync: false, language: 'typescript', indent: '  ' })).to.equal(
      [
        '(async () => {',
        "    const res = await fetch('/endpoint/users');",
        '    console.log(res.status, await res.json());',
        '  })();',
      ].join('\n'),
    );
  });

  const previous: [string, boolean][] = [
    ["console.log('a');", false],
    ['if (x) {', false],
    ['// a comment', false],
    ['', false],
    ['const f = function () {}', true],
    ['const a = b', true],
  ];
  for (const [line, semicolon] of previous) {
    it(`${semicolon ? 'starts with' : 'needs no'} ";" after ${JSON.stringify(line)}`, () => {
      const call = fetchCall('/endpoint/a', null, { inAsync: false, language: 'javascript', previous: line });
      expect(call.startsWith(';(async')).to.equal(semicolon);
    });
  }

  it('sends a method, and a JSON body where one is expected, to an endpoint that answers no GET', () => {
    const place = { inAsync: true, language: 'javascript' };
    expect(fetchCall('/endpoint/login', ['POST'], place)).to.equal(
      "const res = await fetch('/endpoint/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({}) });",
    );
    expect(fetchCall('/endpoint/a', ['DELETE', 'PUT'], place)).to.equal("const res = await fetch('/endpoint/a', { method: 'DELETE' });");
    expect(fetchCall('/endpoint/a', ['POST', 'GET'], place)).to.equal("const res = await fetch('/endpoint/a');");
  });

  it('writes CoffeeScript as CoffeeScript', () => {
    expect(fetchCall('/endpoint/a', null, { inAsync: false, language: 'coffeescript' })).to.equal(
      "do ->\n  res = await fetch('/endpoint/a')\n  console.log res.status, await res.json()",
    );
  });

  it("escapes quotes and backslashes in the URL's string", () => {
    expect(fetchCall("/endpoint/it's\\", null, { inAsync: true, language: 'javascript' })).to.equal(
      "const res = await fetch('/endpoint/it\\'s\\\\');",
    );
  });
});

describe('a selection offered as a mock', () => {
  const cases: [string, unknown][] = [
    ['{"a": 1}', { a: 1 }],
    ['  [1, 2]\n', [1, 2]],
    ['[]', []],
    ['42', undefined],
    ['"text"', undefined],
    ['null', undefined],
    ['{"a": 1', undefined],
    ['{a: 1}', undefined],
    ['', undefined],
  ];
  for (const [text, value] of cases) {
    it(`reads ${JSON.stringify(text)} as ${JSON.stringify(value)}`, () => expect(mockableJson(text)).to.deep.equal(value));
  }

  it(`offers nothing over ${MAX_MOCK_JSON} characters`, () => {
    const big = `[${'1,'.repeat(MAX_MOCK_JSON / 2)}1]`;
    expect(mockableJson(big)).to.equal(undefined);
  });
});

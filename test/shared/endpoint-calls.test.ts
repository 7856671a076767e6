import { expect } from 'chai';
import { calledEndpoints, endpointCalls } from '../../src/shared/endpoint-calls.js';

// Which endpoints a bin's code calls (docs/bin-api.md, "A sketch with its API"): what `save --with-mocks`
// and the editor's "with mocks" Save keep with a revision.
describe('the endpoints a bin\'s code calls', () => {
  const endpoints = [
    { name: 'crew', path: 'crew' },
    { name: 'crew-one', path: 'crew/:id' },
    { name: 'me', path: 'crew/me' },
    { name: 'files', path: 'files/*' },
    { name: 'page', path: 'pages/:n?' },
    { name: 'login', path: 'auth/login' },
    { name: 'tilde', path: 'a~b' },
  ];
  const cases: [string, string, string[]][] = [
    ['a fetch of a static route', "fetch('/endpoint/crew')", ['crew']],
    ['an absolute URL on the joint server', 'fetch("http://127.0.0.1:3000/endpoint/auth/login", { method: "POST" })', ['login']],
    ['a path parameter written out (a static route beside it is not called)', "fetch('/endpoint/crew/7')", ['crew-one']],
    ['the static route a parameter could also take', "fetch('/endpoint/crew/me')", ['crew-one', 'me']],
    ['a segment filled in by a template literal', 'fetch(`/endpoint/crew/${id}`)', ['crew-one', 'me']],
    ['a path concatenated after a slash', "fetch('/endpoint/crew/' + id)", ['crew', 'crew-one', 'me']],
    ['a segment concatenated onto', "fetch('/endpoint/cr' + 'ew')", ['crew', 'crew-one', 'me']],
    ['a query string and a fragment', "fetch('/endpoint/crew?sort=name#top')", ['crew']],
    ['a wildcard route', "fetch('/endpoint/files/a/b.txt')", ['files']],
    ['a wildcard route with nothing after it', "fetch('/endpoint/files')", ['files']],
    ['an optional parameter left out', "fetch('/endpoint/pages')", ['page']],
    ['a link in the html', '<a href="/endpoint/crew">crew</a>', ['crew']],
    ['a percent-escaped segment', "fetch('/endpoint/a%7Eb')", ['tilde']],
    ['the mock page\'s copy of the endpoints (/mocks/endpoint/…)', "fetch('/mocks/endpoint/crew')", ['crew']],
    ['one segment more than any route has', "fetch('/endpoint/crew/7/extra')", []],
    ['a path computed whole', "fetch('/endpoint/' + path)", []],
    ['a path that is all template', 'fetch(`/endpoint/${path}`)', []],
    ['two slashes in a row', "fetch('/endpoint/crew//7')", []],
    ['a broken percent-escape', "fetch('/endpoint/a%2')", []],
    ['a static route of another name', "fetch('/endpoint/crews')", []],
    ['no call at all', "fetch('/api/crew')", []],
  ];
  for (const [what, code, names] of cases) {
    it(`finds ${JSON.stringify(names)} for ${what}`, () => {
      expect(calledEndpoints([code], endpoints).names).to.deep.equal(names);
    });
  }

  it('reads the html and the javascript, and lists the endpoints in the list\'s order, each once', () => {
    const html = '<script>fetch("/endpoint/auth/login")</script>';
    const js = "await fetch('/endpoint/crew'); await fetch('/endpoint/crew'); await fetch('/endpoint/files/x')";
    expect(calledEndpoints([html, js], endpoints).names).to.deep.equal(['crew', 'files', 'login']);
  });

  it('says which calls no endpoint answers, as written', () => {
    const found = calledEndpoints(["fetch('/endpoint/crew'); fetch(`/endpoint/nobody/${id}`)"], endpoints);
    expect(found).to.deep.equal({ names: ['crew'], unanswered: ['/endpoint/nobody/${id}'] });
  });

  it('follows at most 200 distinct calls, however many the code makes', () => {
    const code = Array.from({ length: 5000 }, (_, i) => `fetch('/endpoint/x${i}')`).join('\n');
    expect(endpointCalls([code])).to.have.length(200);
  });

  it('reads a megabyte of code with a call on every line in well under a second', () => {
    const code = "fetch('/endpoint/crew/' + id);\n".repeat(35_000);
    const started = performance.now();
    expect(calledEndpoints([code, code], endpoints).names).to.deep.equal(['crew', 'crew-one', 'me']);
    expect(performance.now() - started).to.be.below(1000);
  });
});

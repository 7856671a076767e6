import { expect } from 'chai';
import { runInNewContext } from 'node:vm';
import { pluralDb, startDbServer, type DbServer } from './plural-db.js';

describe('collections: JSONP (?callback=), as json-server 0.17 answers it', () => {
  let running: DbServer;
  before(async () => {
    running = await startDbServer(JSON.stringify(pluralDb()));
  });
  after(() => running.close());

  /** Runs the answer as a page's <script> would, with `name` a function: what it was called with. */
  const called = (script: string, name: string) => {
    const got: unknown[] = [];
    runInNewContext(script, { [name]: (value: unknown) => got.push(value) });
    return got;
  };

  it('wraps the answer in a call of the callback, as text/javascript, ignoring callback and _ as filters', async () => {
    const res = await running.server.fetch('/endpoint/comments?callback=got&_=1');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    const script = await res.text();
    expect(script).to.match(/^\/\*\*\/ typeof got === 'function' && got\(/);
    expect(called(script, 'got')).to.deep.equal([pluralDb().comments]);
  });

  it('answers an item, a 404 and /db through the callback too', async () => {
    expect(called(await (await running.server.fetch('/endpoint/posts/1?callback=cb')).text(), 'cb')).to.deep.equal([
      pluralDb().posts[0],
    ]);
    const missing = await running.server.fetch('/endpoint/posts/99?callback=cb');
    expect(missing.status).to.equal(404);
    expect(called(await missing.text(), 'cb')).to.deep.equal([{}]);
    const whole = called(await (await running.server.fetch('/endpoint/db?callback=cb')).text(), 'cb');
    expect(whole).to.deep.equal([pluralDb()]);
  });

  // Express only strips characters; we refuse any name that is not identifiers joined by dots.
  const BAD = ['alert(1)//', 'a;b', 'a b', '1a', 'a..b', 'a[0]', "a'", '', 'a'.repeat(129), 'x\u2028y'];
  for (const name of BAD) {
    it(`refuses the callback ${JSON.stringify(name.slice(0, 20))} with a JSON 400 naming callback`, async () => {
      const res = await running.server.fetch(`/endpoint/posts?callback=${encodeURIComponent(name)}`);
      expect(res.status).to.equal(400);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      const message = 'callback must be a name: identifiers joined by dots, at most 128 characters';
      expect(await res.json()).to.deep.equal({ success: false, message, field: 'callback' });
    });
  }

  it('escapes U+2028 and U+2029 in the script', async () => {
    const odd = await startDbServer(JSON.stringify({ notes: [{ id: 1, text: 'a\u2028b\u2029c' }] }));
    try {
      const script = await (await odd.server.fetch('/endpoint/notes?callback=cb')).text();
      expect(script).to.not.match(/[\u2028\u2029]/);
      expect(called(script, 'cb')).to.deep.equal([[{ id: 1, text: 'a\u2028b\u2029c' }]]);
    } finally {
      await odd.close();
    }
  });

  it('keeps the sandbox CSP on the script (it binds documents, not a script a page loads)', async () => {
    const res = await running.server.fetch('/endpoint/posts?callback=cb');
    expect(res.headers.get('content-security-policy')).to.match(/^sandbox/);
  });
});

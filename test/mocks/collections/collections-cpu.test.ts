import { expect } from 'chai';
import { estimateProgramSize } from '../../../src/mocks/collections/like-size.js';
import { RE2JS } from 're2js';
import { startMockServer, type TestMockServer } from '../server.js';

/** Text of `length` characters drawn from `chars`, the same each run. */
function seeded(length: number, chars: string): string {
  let seed = 7;
  let text = '';
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    text += chars[seed % chars.length];
  }
  return text;
}

describe('collections: the CPU budget of _like', () => {
  let server: TestMockServer;
  afterEach(() => server?.close());

  it('refuses the 254-character attack pattern before compiling it, in milliseconds', async () => {
    server = await startMockServer();
    await server.putJson('/api/endpoint/posts', { data: [{ id: 1, t: 'x'.repeat(30_000) }], collection: true });
    // [^\n]{1000} 23 times: 23,002 RE2 instructions; it took 16 s (30 s on a loaded machine) per request.
    const pattern = '[^\\n]{1000}'.repeat(23);
    const started = performance.now();
    const res = await server.fetch(`/endpoint/posts?t_like=${encodeURIComponent(pattern)}`);
    expect(res.status).to.equal(400);
    expect(await res.json()).to.deep.equal({
      success: false,
      message: 't_like: the pattern would compile to about 23006 instructions; at most 1000 (use fewer or smaller repetition counts)',
      field: 't_like',
    });
    expect(performance.now() - started).to.be.below(1000);
  });

  it('estimates no program smaller than RE2 compiles it', () => {
    const patterns = ['abc', '^HELLO', '[^\\n]{1000}', '(a|b)*a(a|b){200}z', '(?:a?){100}a{100}z', '.{250}z',
      '(.*){20}z', '(?P<n>ab)+c', '\\Qa.b*c\\E{5}', '[]a]{3}', '[[:alpha:]x]{10,20}', '\\pL{5}\\p{Greek}{7}', 'a{2,}',
      'x{0,500}', '(?:abcdefghij){90}', '(((a{10}){10}){10})', 'a*?b+?c??', '\\x{41}{3}', 'a|b|c|d', '(?s).{5}',
      '((a|bc)(d|ef)){3}', '[a-z]+@[a-z]+\\.com', '\\d{3}-\\d{4}', 'é{10}', '(?i)x{30}'];
    for (const pattern of patterns) {
      const size = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE).programSize();
      expect(estimateProgramSize(pattern), pattern).to.be.at.least(size);
    }
  });

  it('answers a costly pattern over long fields with a 503 at the budget, holding up no other request', async () => {
    server = await startMockServer({ config: { maxRequestCpu: 100 } });
    // [ab]*a[ab]{200}q is 206 instructions, under the cap, and takes about 0.8 s per 30 KB of a and b.
    const items = Array.from({ length: 10 }, (_, id) => ({ id, t: seeded(30_000, 'ab') }));
    expect((await server.putJson('/api/endpoint/posts', { data: items, collection: true })).status).to.equal(201);
    expect((await server.putJson('/api/endpoint/plain', { data: { ok: true } })).status).to.equal(201);
    const started = performance.now();
    const slow = server.fetch(`/endpoint/posts?t_like=${encodeURIComponent('[ab]*a[ab]{200}q')}`);
    // Plain requests one after another while the pattern runs: none waits for it.
    let longest = 0;
    let answered = false;
    void slow.then(() => (answered = true));
    while (!answered) {
      const sent = performance.now();
      expect((await server.fetch('/endpoint/plain')).status).to.equal(200);
      longest = Math.max(longest, performance.now() - sent);
    }
    const res = await slow;
    const took = performance.now() - started;
    expect(res.status).to.equal(503);
    expect(await res.json()).to.deep.equal({
      success: false,
      message: 't_like went over the CPU budget of one request (100 ms, --max-request-cpu)',
      field: 't_like',
    });
    // About 8 s of matching without the budget; 100 ms with it, plus a worker's start. Generous bounds.
    expect(took).to.be.below(3000);
    expect(longest).to.be.below(1000);
  });

  it('still filters with an ordinary pattern, items without the field never matching', async () => {
    server = await startMockServer();
    const data = [{ id: 1, t: 'Hello world' }, { id: 2, t: 'bye' }, { id: 3 }, { id: 4, t: 'WORLDS' }];
    await server.putJson('/api/endpoint/posts', { data, collection: true });
    const res = await server.fetch('/endpoint/posts?t_like=world&id_ne=4');
    expect((await res.json()).map((item: { id: number }) => item.id)).to.deep.equal([1]);
    const empty = await server.fetch('/endpoint/posts?t_like=(');
    expect(empty.status).to.equal(400);
  });
});

import { expect } from 'chai';
import { OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';

/** Every char code from 1 to 0xD7FF except the ones a form or JSON body cannot carry unchanged. */
function binaryishText(): string {
  let text = '';
  for (let code = 1; code < 0xd800; code += 37) text += String.fromCharCode(code);
  return text;
}

const SAMPLES: Record<string, string> = {
  unicode: 'Grüße, 你好, Привет, مرحبا',
  emoji: '👩‍💻🚀 and 🏳️‍🌈 with a skin tone 👍🏽',
  crlf: 'line one\r\nline two\r\n\r\n\ttabbed\r',
  'binary-ish': binaryishText(),
  '100 KB': 'abcdefghij\n'.repeat(10_000).slice(0, 100_000),
};

describe('bin storage through the API', () => {
  let server: TestBinServer;
  beforeEach(async () => {
    server = await startBinServer(OPEN);
  });
  afterEach(() => server.close());

  for (const [name, text] of Object.entries(SAMPLES)) {
    it(`round-trips ${name} text exactly in a form body`, async () => {
      const res = await server.postForm('/api/save', { html: text, css: `/*${text}*/`, javascript: `//${text}` });
      expect(res.status).to.equal(200);
      const bin = await (await server.fetch(`/api/${(await res.json()).url}`)).json();
      expect(bin.html).to.equal(text);
      expect(bin.css).to.equal(`/*${text}*/`);
      expect(bin.javascript).to.equal(`//${text}`);
    });

    it(`round-trips ${name} text exactly in a JSON body`, async () => {
      const res = await server.fetch('/api/save', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ html: text }),
      });
      const bin = await (await server.fetch(`/api/${(await res.json()).url}`)).json();
      expect(bin.html).to.equal(text);
    });
  }

  it('gives 50 concurrent saves to one bin the snapshots 2..51, none lost or repeated', async () => {
    const first = await (await server.postForm('/api/save', { html: 'start' })).json();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        server.postForm(`/api/${first.url}/save`, { html: `save ${i}` }).then((res) => res.json()),
      ),
    );
    const snapshots = answers.map((a) => a.snapshot).sort((a, b) => a - b);
    expect(snapshots).to.deep.equal(Array.from({ length: 50 }, (_, i) => i + 2));
    // each answered snapshot holds the content of the save it answered
    for (const [i, answer] of answers.entries()) {
      const bin = await (await server.fetch(`/api/${first.url}/${answer.snapshot}`)).json();
      expect(bin.html).to.equal(`save ${i}`);
    }
  });

  it('gives concurrent claims of one new name distinct snapshots from 1', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => server.postForm('/api/fresh-name/save', { html: 'x' }).then((r) => r.json())),
    );
    expect(answers.map((a) => a.snapshot).sort((a, b) => a - b)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

describe('BinStore.revisions', () => {
  let server: TestBinServer;
  beforeEach(async () => {
    server = await startBinServer(OPEN);
  });
  afterEach(() => server.close());

  it('lists a bin\'s revisions newest first, skipping deleted ones and other bins that share a prefix', async () => {
    const save = (bin: string) => server.store.append(bin, () => ({ html: 'x', javascript: '', css: '', settings: {} }));
    for (let i = 0; i < 12; i++) await save('a_b');
    await save('axb'); // '_' would match 'x' in a LIKE pattern
    await save('a_b2');
    await server.store.remove('a_b', 5);
    const revisions = await server.store.revisions('a_b');
    expect(revisions.map((r) => r.rev)).to.deep.equal([12, 11, 10, 9, 8, 7, 6, 4, 3, 2, 1]);
    expect(new Date(revisions[0]!.created).toISOString()).to.equal(revisions[0]!.created);
    expect(await server.store.revisions('nosuch')).to.deep.equal([]);
  });
});

describe('BinStore.peek', () => {
  let server: TestBinServer;
  beforeEach(async () => {
    server = await startBinServer(OPEN);
  });
  afterEach(() => server.close());
  const save = (html: string) => server.store.append('peeked', () => ({ html, javascript: '', css: '', settings: {} }));
  const peek = (rev?: number) => server.store.peek('peeked', rev)?.html;

  it('answers what get answers, from memory', async () => {
    await save('one');
    await save('two');
    expect([peek(), peek(1), peek(2), peek(3)]).to.deep.equal(['two', 'one', 'two', undefined]);
    expect(server.store.peek('peeked')).to.deep.equal(await server.store.get('peeked'));
  });

  it('gives the kept object itself from peek and get, a new one for a new revision', async () => {
    await save('one');
    const kept = server.store.peek('peeked');
    expect(server.store.peek('peeked', 1)).to.equal(kept);
    expect(await server.store.get('peeked')).to.equal(kept);
    await save('two');
    expect(server.store.peek('peeked')).to.not.equal(kept);
    expect(server.store.peek('peeked')).to.include({ html: 'two', rev: 2 });
  });

  it('answers nothing for a deleted revision, and the one before for a deleted latest', async () => {
    for (const html of ['one', 'two', 'three']) await save(html);
    await server.store.remove('peeked', 2);
    await server.store.remove('peeked');
    expect([peek(), peek(1), peek(2), peek(3)]).to.deep.equal(['one', 'one', undefined, undefined]);
  });
});

describe('BinStore heads kept in memory', () => {
  let server: TestBinServer;
  beforeEach(async () => {
    server = await startBinServer({ ...OPEN, cache: { revisionsMB: 64, heads: 2 } });
  });
  afterEach(() => server.close());

  it('keeps at most cache.heads of them, the least recently used going first', async () => {
    const save = (bin: string) => server.store.append(bin, () => ({ html: bin, javascript: '', css: '', settings: {} }));
    for (const bin of ['first', 'second', 'third']) await save(bin);
    const latest = (bin: string) => server.store.peek(bin)?.html;
    expect([latest('first'), latest('second'), latest('third')]).to.deep.equal([undefined, 'second', 'third']);
    expect((await server.store.get('first'))?.html).to.equal('first');
    expect([latest('first'), latest('second'), latest('third')]).to.deep.equal(['first', undefined, 'third']);
  });
});

describe('bin storage with the memory caches off', () => {
  let server: TestBinServer;
  beforeEach(async () => {
    server = await startBinServer({ ...OPEN, cache: { revisionsMB: 0, heads: 0 } });
  });
  afterEach(() => server.close());

  it('still numbers concurrent saves to one bin 1..20 and reads each back from SQLite', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => server.postForm('/api/nocache/save', { html: `n${i}` }).then((r) => r.json())),
    );
    expect(answers.map((a) => a.snapshot).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
    for (const [i, answer] of answers.entries()) {
      expect((await (await server.fetch(`/api/nocache/${answer.snapshot}`)).json()).html).to.equal(`n${i}`);
    }
  });

  it('peeks nothing: every read goes to get', async () => {
    await server.postForm('/api/nocache/save', { html: 'x' });
    expect(server.store.peek('nocache', 1)).to.equal(undefined);
  });
});

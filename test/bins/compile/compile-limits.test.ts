import { expect } from 'chai';
import { createServer, type Server } from 'node:net';
import { createCompiler } from '../../../src/bins/compile/compiler.js';

// A Pug loop the child's own vm timeout stops; a LESS loop only killing the child stops (quadratic:
// range(20000) takes about 1 s idle and a minute at load 30, range(60000) several seconds idle).
const PUG_LOOP = '- while (true) {}\np never';
const LESS_LOOP = 'p { each(range(60000), { a-@{value}: @value; }); }';

describe('compile limits', function () {
  // Children start (and restart after a kill) slowly on a loaded machine: half a second idle, seconds busy.
  this.timeout(60_000);
  describe('the network', () => {
    let listener: Server;
    let connections = 0;
    before(async () => {
      listener = createServer((socket) => {
        connections++;
        socket.on('error', () => {});
        socket.end('HTTP/1.1 200 OK\r\ncontent-length: 6\r\nconnection: close\r\n\r\nsecret');
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    });
    after(() => listener.close());

    it('is out of reach of every processor', async () => {
      const at = `127.0.0.1:${(listener.address() as { port: number }).port}`;
      const compiler = createCompiler();
      try {
        const tries: [string, string][] = [
          ['less', `@import (inline) url("http://${at}/a");`],
          ['less', `@import url("//${at}/b.less");\np { c: d }`],
          ['less', `p { background: data-uri("http://${at}/c.png"); }`],
          ['pug', `include http://${at}/d.pug`],
          ['pug', `- fetch('http://${at}/e')\np x`],
          ['markdown', `![x](http://${at}/f.png)\n\n[g]: http://${at}/g`],
          ['coffeescript', `fetch "http://${at}/h"`],
          ['typescript', `/// <reference path="http://${at}/i.d.ts" />\nimport j from "http://${at}/j.js";`],
        ];
        const results = await Promise.all(tries.map(([name, source]) => compiler.compile(name as 'pug', source)));
        // LESS waits for an import before answering, so any connection it made has been counted by now.
        expect(results.map((r) => (r.ok ? r.code : r.error.message)).join('\n')).to.not.include('secret');
        expect(results[0]).to.deep.include({ ok: false });
        expect(connections).to.equal(0);
      } finally {
        compiler.close();
      }
    });
  });

  describe('after an answer', () => {
    it('runs nothing of a Pug promise chain: an unrelated TypeScript compile then answers correctly', async () => {
      const compiler = createCompiler();
      try {
        const chain = await compiler.compile('pug', '- const f = () => Promise.resolve().then(f); f()\np hi');
        expect(chain).to.deep.equal({ ok: false, error: { message: 'took longer than 1000 ms and was stopped' } });
        const unrelated = await compiler.compile('typescript', 'let a: number = 1');
        expect(unrelated).to.deep.equal({ ok: true, code: 'let a = 1;\n' });
      } finally {
        compiler.close();
      }
    });

    it('caps a child\'s memory, typed arrays included, and fails its compile', async () => {
      // About 800 MB in 10 MB buffers: outside the V8 heap, so --max-old-space-size does not see them.
      const compiler = createCompiler({ maxMemoryMb: 300, timeoutMs: 10_000 });
      try {
        const hog = '- const a = []; for (let i = 0; i < 80; i++) a.push(new Uint8Array(1e7).fill(1))\np done';
        expect(await compiler.compile('pug', hog)).to.deep.equal({
          ok: false, error: { message: 'used more than 300 MB of memory and was stopped' },
        });
        expect(await compiler.compile('markdown', '*a*')).to.deep.equal({ ok: true, code: '<p><em>a</em></p>\n' });
      } finally {
        compiler.close();
      }
    });
  });

  describe('the cache', () => {
    for (const [what, processor, source] of [['a Pug loop', 'pug', PUG_LOOP], ['a LESS loop', 'less', LESS_LOOP]]) {
      it(`keeps no timeout of ${what}: the same source is tried again`, async () => {
        const compiler = createCompiler();
        try {
          const stopped = { ok: false, error: { message: 'took longer than 1000 ms and was stopped' } };
          expect(await compiler.compile(processor as 'pug', source!)).to.deep.equal(stopped);
          expect(await compiler.compile(processor as 'pug', source!)).to.deep.equal(stopped);
          expect(compiler.stats()).to.deep.equal({ compiles: 2, hits: 0 });
          const unrelated = await compiler.compile('typescript', 'let b: number = 2');
          expect(unrelated).to.deep.equal({ ok: true, code: 'let b = 2;\n' });
        } finally {
          compiler.close();
        }
      });
    }
  });
});

import { expect } from 'chai';
import { request } from 'node:http';
import { COMPILER_DEFAULTS, createCompiler, type Compiler } from '../../../src/bins/compile/compiler.js';
import { OPEN, startBinServer, type TestBinServer } from '../../helpers/bin-server.js';

const FLOODER = '127.0.0.2';
const OTHER = '127.0.0.1';
const STOPPED = 'took longer than 1000 ms and was stopped';
const REFUSED = 'too many compiles waiting, try again shortly';
/** A Pug loop the child's vm timeout stops at the time limit; `i` makes each one its own source. */
const loop = (i: number): string => `- while (true) {}\np never ${i}`;

/** A request from `localAddress`: on loopback that is how a test is another client (fetch cannot pick it). */
function requestFrom(server: TestBinServer, localAddress: string, path: string, json?: object): Promise<string> {
  return new Promise((resolve, reject) => {
    const headers = json ? { 'content-type': 'application/json' } : {};
    const options = { method: json ? 'POST' : 'GET', localAddress, agent: false, headers };
    const req = request(`${server.url}${path}`, options, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(text)).on('error', reject);
    });
    req.on('error', reject).end(json ? JSON.stringify(json) : undefined);
  });
}

/**
 * Sends `floods` from the flooder at once, resolves when its line is full (the first refusal), then times
 * `mine` in the flooder's compiles: how many of them the time limit stopped while `mine` waited.
 */
async function duringFlood(floods: (() => Promise<string>)[], mine: () => Promise<string>) {
  let stopped = 0;
  let full!: () => void;
  const isFull = new Promise<void>((resolve) => (full = resolve));
  const answers = floods.map((send) =>
    send().then((text) => {
      if (text.includes(STOPPED)) stopped++;
      if (text.includes(REFUSED)) full();
      return text;
    }, () => ''));
  await isFull;
  const before = stopped;
  const answer = await mine();
  return { answer, waitedFor: stopped - before, floods: answers };
}

describe('compile fair shares', function () {
  // Children start slowly on a loaded machine, and a flood is a few seconds of loops.
  this.timeout(60_000);
  let compiler: Compiler;
  let server: TestBinServer;
  beforeEach(async () => {
    compiler = createCompiler();
    server = await startBinServer(OPEN, undefined, { compiler });
    // Children started first: what is measured is waiting, not starting Node.
    const warm = await requestFrom(server, OTHER, '/api/compile', { processor: 'markdown', source: 'warm' });
    expect(warm).to.include('warm');
  });
  afterEach(async () => {
    compiler.close();
    await server.close();
  });

  // Counted in the flooder's compiles rather than seconds, which a loaded machine stretches: round-robin lets
  // the running two end and maybe one more start; first come, first served would wait for all 16 in line.
  const fair = COMPILER_DEFAULTS.maxQueuePerClient / 4;

  it('serves another client after about one compile time while one client floods /api/compile', async () => {
    const floods = Array.from({ length: 70 }, (_, i) => () =>
      requestFrom(server, FLOODER, '/api/compile', { processor: 'pug', source: loop(i) }));
    const mine = () => requestFrom(server, OTHER, '/api/compile', { processor: 'markdown', source: '# mine' });
    const { answer, waitedFor, floods: answers } = await duringFlood(floods, mine);
    expect(JSON.parse(answer)).to.deep.equal({ code: '<h1>mine</h1>\n' });
    expect(waitedFor).to.be.at.most(fair);
    compiler.close();
    expect((await Promise.all(answers)).filter((text) => text.includes('never'))).to.deep.equal([]);
  });

  it('counts a page view as its viewer\'s: one viewer\'s looping bins do not hold back another\'s page', async () => {
    const save = async (html: string, processor: string) => {
      const bin = await server.store.append(undefined, () => ({
        html, css: '', javascript: '', settings: { processors: { html: processor } },
      }));
      return bin.bin;
    };
    const looping = await Promise.all(Array.from({ length: 40 }, (_, i) => save(loop(i), 'pug')));
    const markdown = await save('# mine', 'markdown');
    const floods = looping.map((bin) => () => requestFrom(server, FLOODER, `/${bin}/quiet`));
    const mine = () => requestFrom(server, OTHER, `/${markdown}/quiet`);
    const { answer, waitedFor } = await duringFlood(floods, mine);
    expect(answer).to.equal('<h1>mine</h1>\n');
    expect(waitedFor).to.be.at.most(fair);
  });
});

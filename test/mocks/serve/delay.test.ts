import { expect } from 'chai';
import { Agent, request } from 'node:http';
import { addEndpoint, startMockServer, type TestMockServer } from '../server.js';

/** One GET over its own connection; resolves with the status and the time it took. */
function timedGet(url: string, agent: Agent): Promise<{ status: number; ms: number }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - start }));
    })
      .on('error', reject)
      .end();
  });
}

describe('endpoint delay', function () {
  // Correctness, not speed: lower bounds are the delay itself, upper bounds many times what an idle
  // machine takes, so a loaded one passes and a blocking wait still fails. Speed is in bench/mocks.js.
  this.timeout(120_000);
  let server: TestMockServer;
  before(async () => {
    server = await startMockServer();
    await addEndpoint(server, { name: 'slow', data: { slow: true }, delay: 300 });
    await addEndpoint(server, { name: 'very-slow', data: 1, delay: 5000 });
    await addEndpoint(server, { name: 'fast', data: { fast: true } });
  });
  after(() => server.close());

  it('holds the response back by the stored delay', async () => {
    const start = performance.now();
    const res = await server.fetch('/endpoint/slow');
    const ms = performance.now() - start;
    expect(await res.json()).to.deep.equal({ slow: true });
    expect(ms).to.be.at.least(295).and.below(3000);
  });

  it('answers 1,000 concurrent requests at delay 300 ms, none early, all together rather than in turn', async () => {
    const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
    const start = performance.now();
    const results = await Promise.all(
      Array.from({ length: 1000 }, () => timedGet(`${server.url}/endpoint/slow`, agent)),
    );
    const total = performance.now() - start;
    agent.destroy();
    expect(results.every((r) => r.status === 200)).to.equal(true);
    expect(Math.min(...results.map((r) => r.ms))).to.be.at.least(295);
    // About 1 s idle, 7.5 s seen on a heavily loaded 2-core machine; one request after another would take 300 s.
    expect(total).to.be.below(60_000);
  });

  it('does not hold up requests to other endpoints', async () => {
    const hits = () => server.store.get('very-slow')!.stats.hits;
    const before = hits();
    const controller = new AbortController();
    let slowDone = false;
    const slow = server
      .fetch('/endpoint/very-slow', { signal: controller.signal })
      .then(() => (slowDone = true))
      .catch(() => 'aborted');
    // The 5 s request is being delayed once the server has counted it.
    await waitFor(() => hits() === before + 1, 10_000);
    expect(await (await server.fetch('/endpoint/fast')).json()).to.deep.equal({ fast: true });
    expect(slowDone, 'the fast answer came before the slow one').to.equal(false);
    controller.abort();
    await slow;
  });

  it('frees the timer of a client that disconnects during the delay', async () => {
    // Watch the server's timers (it runs in this process): the 5 s one must be cleared on abort.
    const { setTimeout: realSet, clearTimeout: realClear } = globalThis;
    const delayTimers: unknown[] = [];
    const cleared = new Set<unknown>();
    globalThis.setTimeout = ((fn: () => void, ms?: number) => {
      const timer = realSet(fn, ms);
      if (ms === 5000) delayTimers.push(timer);
      return timer;
    }) as typeof setTimeout;
    globalThis.clearTimeout = ((timer: NodeJS.Timeout) => {
      cleared.add(timer);
      realClear(timer);
    }) as typeof clearTimeout;
    try {
      const controller = new AbortController();
      const pending = server.fetch('/endpoint/very-slow', { signal: controller.signal }).catch(() => 'aborted');
      await waitFor(() => delayTimers.length === 1);
      controller.abort();
      expect(await pending).to.equal('aborted');
      await waitFor(() => cleared.has(delayTimers[0]));
    } finally {
      globalThis.setTimeout = realSet;
      globalThis.clearTimeout = realClear;
    }
  });
});

async function waitFor(condition: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

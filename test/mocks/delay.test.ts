import { expect } from 'chai';
import { Agent, request } from 'node:http';
import { addEndpoint, startMockServer, type TestMockServer } from './server.js';

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
  // Upper bounds are loose: a busy CI machine must not fail these, a blocking wait still would.
  this.timeout(20_000);
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
    expect(ms).to.be.at.least(295).and.below(1500);
  });

  it('finishes 1,000 concurrent requests at delay 300 ms in about 300 ms', async () => {
    const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
    const start = performance.now();
    const results = await Promise.all(
      Array.from({ length: 1000 }, () => timedGet(`${server.url}/endpoint/slow`, agent)),
    );
    const total = performance.now() - start;
    agent.destroy();
    const times = results.map((r) => r.ms).sort((a, b) => a - b);
    expect(results.every((r) => r.status === 200)).to.equal(true);
    expect(times[0]).to.be.at.least(295);
    // A blocking wait would take 1,000 x 300 ms; a listen backlog too small for the burst, 1.3 s or more.
    expect(times[949], '95th percentile').to.be.below(1200);
    expect(total).to.be.below(3000);
  });

  it('does not hold up requests to other endpoints', async () => {
    const slow = server.fetch('/endpoint/slow');
    const start = performance.now();
    await (await server.fetch('/endpoint/fast')).json();
    expect(performance.now() - start).to.be.below(250);
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

import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startCluster, INSTANCE_HEADER, type Cluster } from '../helpers/cluster.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../helpers/round-robin-proxy.js';

// The multi-instance tests' own tools: the proxy, then the cluster of real processes.

type Target = { server: Server; url: string; seen: string[] };

/** A server that answers `target <i>: <method> <body>` and remembers what it got; `reset` drops the connection instead. */
async function startTarget(i: number, reset = false): Promise<Target> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push(`${req.method} ${body}`);
      if (reset) req.socket.destroy();
      else res.end(`target ${i}: ${req.method} ${body}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function closeTarget(target: Target): Promise<void> {
  return new Promise((resolve) => {
    target.server.close(() => resolve());
    target.server.closeAllConnections();
  });
}

describe('round-robin proxy (test harness)', () => {
  let targets: Target[];
  let proxy: RoundRobinProxy;
  beforeEach(async () => {
    targets = await Promise.all([0, 1, 2].map((i) => startTarget(i)));
    proxy = await startRoundRobinProxy(targets.map((t) => t.url));
  });
  afterEach(async () => {
    await proxy.close();
    await Promise.all(targets.filter((t) => t.server.listening).map(closeTarget));
  });

  async function send(method: string, body?: string): Promise<{ status: number; instance: string | null; text: string }> {
    const res = await fetch(proxy.url, { method, body });
    return { status: res.status, instance: res.headers.get(INSTANCE_HEADER), text: await res.text() };
  }

  it('sends requests to each target in turn and names the one that answered', async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await send('GET'));
    expect(answers.map((a) => a.instance)).to.deep.equal(['0', '1', '2', '0', '1', '2']);
    expect(answers.map((a) => a.text)).to.deep.equal([0, 1, 2, 0, 1, 2].map((i) => `target ${i}: GET `));
  });

  it('forwards the body of a POST', async () => {
    expect(await send('POST', 'html=x ✓')).to.deep.equal({ status: 200, instance: '0', text: 'target 0: POST html=x ✓' });
  });

  it('skips a target that refuses the connection, for a GET and a POST alike', async () => {
    await closeTarget(targets[1]!);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await (i % 2 ? send('POST', `n=${i}`) : send('GET')));
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200, 200]);
    expect(answers.map((a) => a.instance)).to.deep.equal(['0', '2', '2', '0', '2', '2']);
    expect(answers[1]!.text).to.equal('target 2: POST n=1');
  });

  it('answers 502 when every target refuses', async () => {
    await Promise.all(targets.map(closeTarget));
    const answer = await send('POST', 'x');
    expect(answer.status).to.equal(502);
    expect(JSON.parse(answer.text)).to.deep.equal({ error: 'every instance refused the connection' });
  });

  it('answers 502 without a retry when the target drops a request it received', async () => {
    await proxy.close();
    const dropping = await startTarget(9, true);
    proxy = await startRoundRobinProxy([dropping.url, targets[0]!.url]);
    try {
      const answer = await send('POST', 'once');
      expect(answer.status).to.equal(502);
      expect(dropping.seen).to.deep.equal(['POST once']);
      expect(targets[0]!.seen, 'not sent again elsewhere').to.deep.equal([]);
    } finally {
      await closeTarget(dropping);
    }
  });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('cluster of serve-bins processes (test harness)', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  before(async () => {
    cluster = await startCluster({ count: 2 }); // a SQLite file each: the processes and the proxy only
  });
  after(() => cluster.stop());

  it('starts each instance on its own URL and process, reachable directly and through the proxy', async () => {
    const [a, b] = cluster.instances;
    expect(a!.url).to.not.equal(b!.url);
    expect(isRunning(a!.pid) && isRunning(b!.pid)).to.equal(true);
    for (const instance of cluster.instances) expect(await (await fetch(`${instance.url}/status`)).text()).to.equal('OK');
    const through = [];
    for (let i = 0; i < 4; i++) through.push((await fetch(`${cluster.url}/status`)).headers.get(INSTANCE_HEADER));
    expect(through.sort()).to.deep.equal(['0', '0', '1', '1']);
  });

  it('allows anonymous saves and keeps answering through the proxy after kill -9 of an instance', async () => {
    const saved = await fetch(`${cluster.url}/api/save`, { method: 'POST', body: new URLSearchParams({ html: 'x' }) });
    expect(saved.status).to.equal(200);
    const victim = cluster.instances[0]!;
    await victim.kill('SIGKILL');
    expect(isRunning(victim.pid)).to.equal(false);
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${cluster.url}/api/save`, { method: 'POST', body: new URLSearchParams({ html: 'y' }) });
      expect([res.status, res.headers.get(INSTANCE_HEADER)]).to.deep.equal([200, '1']);
    }
  });

  it('kills every instance on stop()', async () => {
    const pids = cluster.instances.map((instance) => instance.pid);
    await cluster.stop();
    expect(pids.filter(isRunning)).to.deep.equal([]);
  });
});

// Scale-out rows (issue 15): saves/s and reads/s of 1, 2 and 4 instances of `serve-bins --store` on one
// PostgreSQL and on one Redis, beside SQLite on one instance; how long a save on one instance takes to be
// served by another (and a mock endpoint's change, between two serve-mocks); cold start on a store of 1 M
// revisions; memory under load against idle.
// Everything (load generator, instances, store) shares this machine's cores: each throughput row says
// how the CPU time of the run split between them.
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createClient } from '@redis/client';
import pg from 'pg';
import { tsImport } from 'tsx/esm/api';
import { CLI, CLK_TCK, DURATION, cpuSeconds, log, startChild } from './lib.js';
import { binsFor, fillPostgres, fillRedis } from './fill-shared.js';
import { median } from './rounds.js';

const OPEN = { SNIPPETKIT_API_ALLOWANONYMOUSREADWRITE: 'true' };
/** Revisions in the store of the cold-start rows; BENCH_COLD=100000 for a quick look. */
const COLD_SIZE = Number(process.env.BENCH_COLD ?? 1_000_000);
/** Saves timed from one instance to another. */
const CHANGES = Number(process.env.BENCH_CHANGES ?? 200);
/** Parts of this group: BENCH_CLUSTER=notices,cold runs those alone. */
const PARTS = (process.env.BENCH_CLUSTER ?? 'throughput,notices,cold').split(',');
/** Instance counts of the throughput rows on a shared store. */
const COUNTS = (process.env.BENCH_INSTANCES ?? '1,2,4').split(',').map(Number);
const READ_BINS = 100;
/** Saves per instance before the save rows (JIT warm-up). */
const WARM_UP = Number(process.env.BENCH_WARMUP ?? 3000);
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const formBody = (html) => new URLSearchParams({ html, css: 'h1 { color: red }', javascript: 'console.log(1)' }).toString();

// Every instance started and not yet stopped: stopped on the way out, whatever the way.
const instances = new Set();
process.on('exit', () => {
  for (const instance of instances) process.kill(instance.pid, 'SIGKILL');
});

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'snippetkit-bench-'));
  const stores = await openStores();
  try {
    const rows = [];
    if (PARTS.includes('throughput')) rows.push(...(await throughput(stores, dir)));
    if (PARTS.includes('notices')) for (const store of stores.shared) rows.push(...(await notices(store)));
    if (PARTS.includes('notices')) for (const store of stores.shared) rows.push(await mockNotices(store));
    if (PARTS.includes('cold')) for (const store of stores.shared) rows.push(await coldStarts(store));
    return rows;
  } finally {
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The PostgreSQL and Redis to run on: SNIPPETKIT_BENCH_POSTGRES / SNIPPETKIT_BENCH_REDIS (URLs), or
 * throwaway servers started as the tests start theirs (test/helpers, through tsx). Each scenario gets
 * a fresh database or key prefix of its own (`fresh()`), with its store's CPU readable (`cpu()`).
 */
async function openStores() {
  const owned = [];
  const server = async (variable, helper, spawnName) => {
    if (process.env[variable]) return process.env[variable];
    const started = await (await tsImport(helper, import.meta.url))[spawnName]();
    owned.push(started);
    return started.url;
  };
  try {
    const postgresUrl = await server('SNIPPETKIT_BENCH_POSTGRES', '../test/helpers/postgres-server.ts', 'spawnPostgres');
    const redisUrl = await server('SNIPPETKIT_BENCH_REDIS', '../test/helpers/redis-server.ts', 'spawnRedis');
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    const databases = [];
    const prefixes = [];
    const postmaster = await postmasterPid(admin);
    const redisPid = Number(/process_id:(\d+)/.exec(await redis.info('server'))[1]);
    let n = 0;
    const postgres = {
      name: 'PostgreSQL',
      async fresh() {
        const name = `bench_${process.pid}_${n++}`;
        await admin.query(`CREATE DATABASE ${name}`);
        databases.push(name);
        const url = new URL(postgresUrl);
        url.pathname = `/${name}`;
        return url.href;
      },
      fill: (url, revisions) => fillPostgres(url, revisions),
      cpu: () => treeCpuSeconds(postmaster),
    };
    const redisStore = {
      name: 'Redis',
      async fresh() {
        const prefix = `bench${process.pid}_${n++}:`;
        prefixes.push(prefix);
        return `${new URL('/0', redisUrl).href}?prefix=${prefix}`;
      },
      fill(url, revisions) {
        const parsed = new URL(url);
        return fillRedis(`redis://${parsed.host}`, parsed.searchParams.get('prefix'), revisions);
      },
      cpu: () => cpuSeconds(redisPid),
    };
    return {
      shared: [postgres, redisStore],
      async close() {
        // What the run left on servers it does not own; its own servers go whole.
        if (process.env.SNIPPETKIT_BENCH_POSTGRES) {
          for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        }
        if (process.env.SNIPPETKIT_BENCH_REDIS) {
          for (const prefix of prefixes) {
            for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 5000 })) {
              if (keys.length > 0) await redis.unlink(keys);
            }
          }
        }
        await admin.end();
        redis.destroy();
        await Promise.all(owned.map((s) => s.remove()));
      },
    };
  } catch (err) {
    await Promise.all(owned.map((s) => s.remove()));
    throw err;
  }
}

/** The postmaster: the parent of any of its background processes. */
async function postmasterPid(admin) {
  const { rows } = await admin.query("SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'");
  return Number(readFileSync(`/proc/${rows[0].pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
}

/** CPU seconds of `pid` and its children: those running now, and those it has waited for (cutime, cstime). */
function treeCpuSeconds(pid) {
  const fields = (p) => {
    const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  };
  const own = fields(pid);
  let ticks = own[11] + own[12] + own[13] + own[14];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const child = fields(entry);
      if (child[1] === pid) ticks += child[11] + child[12];
    } catch {
      // it ended meanwhile: its time is in the parent's cutime once reaped
    }
  }
  return ticks / CLK_TCK;
}

/** Starts `count` instances of serve-bins (or `command`) on `store` (a --store URL, or a SQLite file for --data). */
async function startInstances(count, store, command = 'serve-bins') {
  const flag = /^(postgres|redis):/.test(store) ? '--store' : '--data';
  const started = await Promise.all(
    Array.from({ length: count }, () => startChild([CLI, command, '--port', '0', flag, store], OPEN)),
  );
  for (const instance of started) instances.add(instance);
  return {
    list: started,
    async stop() {
      await Promise.all(started.map((instance) => instance.stop()));
      for (const instance of started) instances.delete(instance);
    },
  };
}

/** Resident memory of a process, MB. */
function rssMb(pid) {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
  return kb / 1024;
}

async function throughput(stores, dir) {
  const rows = [];
  const scenarios = [{ name: 'SQLite', count: 1, store: join(dir, 'cluster.sqlite'), cpu: () => 0 }];
  for (const store of stores.shared) {
    for (const count of COUNTS) scenarios.push({ name: store.name, count, store: await store.fresh(), cpu: store.cpu });
  }
  for (const scenario of scenarios) {
    const label = `${scenario.name} ×${scenario.count}`;
    const group = await startInstances(scenario.count, scenario.store);
    try {
      const idle = group.list.map((i) => rssMb(i.pid));
      // Reads first: what the saves leave running in the store (PostgreSQL) would show in them.
      log(`cluster ${label}: reads`);
      for (let b = 0; b < READ_BINS; b++) await postForm(`${group.list[0].url}/api/read${b}/save`, `<h1>Read ${b}</h1>`);
      const setupRequest = (req) => ({ ...req, path: `/api/read${Math.floor(Math.random() * READ_BINS)}` });
      const reads = { requests: [{ setupRequest }], connections: 100 };
      await measure('warm-up', group.list, scenario, { ...reads, amount: 2 * WARM_UP });
      rows.push(await measure(`read GET /api/:bin, ${READ_BINS} bins cached, ${label}`, group.list, scenario, reads));
      log(`cluster ${label}: saves`);
      const body = formBody('<h1>Hello</h1>');
      const post = { method: 'POST', body, headers: FORM, connections: 50 };
      // Fresh processes: a warm-up first, or the row measures the JIT compiling the server. It counts
      // requests, not seconds: on Redis, 4 fresh instances sharing 2 cores cost 600 µs a save over their
      // first 1,400 saves each, 210 from about 3,000 on.
      await measure('warm-up', group.list, scenario, { ...post, path: '/api/save', amount: WARM_UP });
      rows.push(await measure(`save new bins, ${label}`, group.list, scenario, { ...post, path: '/api/save' }));
      const loaded = group.list.map((i) => rssMb(i.pid));
      rows.push(await measure(`save one hot bin, ${label}`, group.list, scenario, { ...post, path: '/api/hot/save' }));
      if (scenario.count === 1) {
        rows.push({
          benchmark: `memory: ${label}, idle → after the new-bin saves`,
          'RSS MB': `${idle[0].toFixed(0)} → ${loaded[0].toFixed(0)}`,
          'RSS ×': (loaded[0] / idle[0]).toFixed(2),
          target: '≤ 2',
        });
      }
    } finally {
      await group.stop();
    }
  }
  return rows;
}

/**
 * One autocannon per instance, all at once, for the same time; req/s summed. The CPU of the run is
 * split between this process (the load generator), the instances and the store's processes.
 */
async function measure(title, list, scenario, options) {
  const { path, ...rest } = options;
  const serverCpu = () => list.reduce((sum, i) => sum + cpuSeconds(i.pid), 0);
  const connections = Math.max(1, Math.round((rest.connections ?? 100) / list.length));
  const before = { gen: process.cpuUsage(), servers: serverCpu(), store: scenario.cpu() };
  const results = await Promise.all(
    list.map((i) => autocannon({ duration: DURATION, ...rest, connections, url: i.url + (path ?? '') })),
  );
  const gen = process.cpuUsage(before.gen);
  const cpu = {
    gen: (gen.user + gen.system) / 1e6,
    servers: serverCpu() - before.servers,
    store: scenario.cpu() - before.store,
  };
  const failed = results.reduce((sum, r) => sum + r.errors + r.timeouts + r.non2xx, 0);
  if (failed > 0) throw new Error(`${title}: ${failed} failed requests`);
  const requests = results.reduce((sum, r) => sum + r.requests.total, 0);
  const seconds = Math.max(...results.map((r) => r.duration));
  const total = cpu.gen + cpu.servers + cpu.store;
  const share = (part) => Math.round((100 * part) / total);
  return {
    benchmark: title,
    'req/s': Math.round(requests / seconds),
    'p50 ms': Math.max(...results.map((r) => r.latency.p50)),
    'p99 ms': Math.max(...results.map((r) => r.latency.p99)),
    'CPU µs/req': ((cpu.servers * 1e6) / requests).toFixed(1),
    'store µs/req': ((cpu.store * 1e6) / requests).toFixed(1),
    'CPU gen/servers/store %': `${share(cpu.gen)}/${share(cpu.servers)}/${share(cpu.store)}`,
  };
}

/**
 * Change notices: a save on instance A, then B polled on one keep-alive connection until it serves the
 * new revision; B had the old one cached (it read it just before). Timed from A's answer (the save is
 * stored), and from the save's start.
 */
async function notices(store) {
  log(`cluster ${store.name}: ${CHANGES} changes from one instance to another`);
  const group = await startInstances(2, await store.fresh());
  const [a, b] = group.list;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const url = `${b.url}/api/notice`;
    await postForm(`${a.url}/api/notice/save`, '<p>change 0</p>');
    const fromAnswer = [];
    const fromSave = [];
    for (let i = 1; i <= CHANGES; i++) {
      await getText(agent, url); // cached on B: the latest it has
      const started = performance.now();
      const { snapshot } = await postForm(`${a.url}/api/notice/save`, `<p>change ${i}</p>`);
      const answered = performance.now();
      const wanted = new RegExp(`"snapshot":${snapshot}[,}]`);
      for (;;) {
        if (wanted.test(await getText(agent, url))) break;
        if (performance.now() - answered > 5000) throw new Error(`${store.name}: B never served revision ${snapshot}`);
      }
      const served = performance.now();
      fromAnswer.push(served - answered);
      fromSave.push(served - started);
    }
    const latency = {
      benchmark: `change notice, ${store.name}: save answered on A → served by B (from the save's start)`,
      'p50 ms': `${quantile(fromAnswer, 0.5).toFixed(1)} (${quantile(fromSave, 0.5).toFixed(1)})`,
      'p99 ms': `${quantile(fromAnswer, 0.99).toFixed(1)} (${quantile(fromSave, 0.99).toFixed(1)})`,
      target: 'p99 ≤ 100',
    };
    // What every instance pays for every save anywhere: B serves nothing while A takes saves, so B's CPU
    // over the run (less what it spends idle in as long) is the notices' cost.
    const idleStart = cpuSeconds(b.pid);
    await new Promise((r) => setTimeout(r, DURATION * 1000));
    const idle = cpuSeconds(b.pid) - idleStart;
    const before = cpuSeconds(b.pid);
    const saved = await autocannon({ url: `${a.url}/api/save`, method: 'POST', body: formBody('<h1>Hello</h1>'), headers: FORM, connections: 50, duration: DURATION });
    const heard = cpuSeconds(b.pid) - before - idle;
    const cost = {
      benchmark: `notice cost, ${store.name}: CPU of an instance serving nothing, per save on another`,
      'req/s': Math.round(saved.requests.average),
      'CPU µs/req': ((heard * 1e6) / saved.requests.total).toFixed(1),
    };
    return [latency, cost];
  } finally {
    agent.destroy();
    await group.stop();
  }
}

/**
 * The mock server's change notices: an endpoint replaced on instance A (PUT /api/endpoint/:name), then B
 * asked on one keep-alive connection until its answer is the new data; B answered the old data just before.
 */
async function mockNotices(store) {
  log(`cluster ${store.name}: ${CHANGES} mock endpoint changes from one instance to another`);
  const group = await startInstances(2, await store.fresh(), 'serve-mocks');
  const [a, b] = group.list;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const put = async (data) => {
    const res = await fetch(`${a.url}/api/endpoint/notice`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data }),
    });
    if (!res.ok) throw new Error(`PUT on A: ${res.status} ${await res.text()}`);
  };
  try {
    const url = `${b.url}/endpoint/notice`;
    await put({ change: 0 });
    const fromAnswer = [];
    const fromSave = [];
    for (let i = 1; i <= CHANGES; i++) {
      await getText(agent, url); // B's answer before the change
      const wanted = JSON.stringify({ change: i });
      const started = performance.now();
      await put({ change: i });
      const answered = performance.now();
      for (;;) {
        if ((await getText(agent, url)) === wanted) break;
        if (performance.now() - answered > 5000) throw new Error(`${store.name}: B never served change ${i}`);
      }
      const served = performance.now();
      fromAnswer.push(served - answered);
      fromSave.push(served - started);
    }
    return {
      benchmark: `mock change notice, ${store.name}: PUT answered on A → served by B (from the PUT's start)`,
      'p50 ms': `${quantile(fromAnswer, 0.5).toFixed(1)} (${quantile(fromSave, 0.5).toFixed(1)})`,
      'p99 ms': `${quantile(fromAnswer, 0.99).toFixed(1)} (${quantile(fromSave, 0.99).toFixed(1)})`,
      target: 'p99 ≤ 100',
    };
  } finally {
    agent.destroy();
    await group.stop();
  }
}

function quantile(values, q) {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/**
 * Cold start on a store of COLD_SIZE revisions filled in bulk: spawn to the first answer of a bin, five
 * times, each paired with a start on an empty store of the same kind (what start-up costs anyway).
 */
async function coldStarts(store) {
  const [url, empty] = [await store.fresh(), await store.fresh()];
  // A start makes the schema (the fill goes into it); the empty store gets the one bin its starts read.
  await (await startInstances(1, url)).stop();
  await postFormTo(empty);
  const size = COLD_SIZE.toLocaleString('en');
  log(`cluster ${store.name}: filling ${size} revisions`);
  const filling = performance.now();
  const { bins } = await store.fill(url, COLD_SIZE);
  log(`cluster ${store.name}: filled in ${Math.round(performance.now() - filling)} ms`);
  const [full, base] = [[], []];
  for (let i = 0; i < 5; i++) {
    full.push(await coldStart(url, `/api/fill${Math.floor(Math.random() * bins)}`));
    base.push(await coldStart(empty, '/api/one'));
  }
  full.sort((x, y) => x - y);
  base.sort((x, y) => x - y);
  return {
    benchmark: `cold start: serve-bins on ${store.name}, ${size} revs (${binsFor(COLD_SIZE).toLocaleString('en')} bins)`,
    'p50 ms': Math.round(median(full)),
    'p99 ms': `max ${Math.round(full[4])}`,
    'empty store p50 ms': `${Math.round(median(base))} (max ${Math.round(base[4])})`,
    target: '< 1000',
  };
}

/** One bin (`one`) on a store, through an instance started for it. */
async function postFormTo(store) {
  const group = await startInstances(1, store);
  try {
    await postForm(`${group.list[0].url}/api/one/save`, '<p>one</p>');
  } finally {
    await group.stop();
  }
}

async function coldStart(store, path) {
  const port = await freePort();
  const started = performance.now();
  const args = [CLI, 'serve-bins', '--port', String(port), '--store', store, '--quiet'];
  const child = spawn(process.execPath, args, { stdio: 'ignore', env: { ...process.env, ...OPEN } });
  const instance = { pid: child.pid };
  instances.add(instance);
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}${path}`);
        if (res.ok) return performance.now() - started;
        throw new Error(`${path}: ${res.status}`);
      } catch (err) {
        if (err.message.startsWith(path)) throw err;
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error(`serve-bins exited (${child.exitCode})`);
      await new Promise((r) => setTimeout(r, 2));
    }
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.on('exit', r) : r()));
    instances.delete(instance);
  }
}

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function postForm(url, html) {
  const res = await fetch(url, { method: 'POST', headers: FORM, body: formBody(html) });
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A GET on `agent`'s one kept-alive connection; the body as text. */
function getText(agent, url) {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`${url}: ${res.statusCode}`))));
    })
      .on('error', reject)
      .end();
  });
}

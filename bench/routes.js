// Route rows (issue 12): a templated endpoint with a :param path and three responses against a bare
// node:http server sending bytes of the same size, and a parameter-path hit with 10,000 endpoints
// (mixed static and parameter paths) against the same hit with 10, over HTTP and in process.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BARE, CLI, interleaved, load, startChild } from './lib.js';
import { log, throughputRow } from './mocks.js';

const { openMockStore } = await import('../dist/mocks/store.js');
const { RouteTable } = await import('../dist/mocks/routes.js');

const TEMPLATED = {
  name: 'user',
  path: 'users/:id',
  statusCode: 200,
  delay: 0,
  template: true,
  json: JSON.stringify({ id: '{{params.id}}', name: 'user {{params.id}}', q: '{{query.q}}' }),
  headers: { 'X-Id': '{{params.id}}' },
  responses: [
    { when: { method: ['PUT'] }, statusCode: 204 },
    { when: { query: { role: 'admin' } }, json: JSON.stringify({ id: '{{params.id}}', admin: true }) },
    { when: { headers: { 'x-fail': '1' } }, fault: 'reset' },
  ],
};

/** `count` endpoints: half plain names, half parameter paths; the measured one is among them. */
function endpoints(count) {
  const list = [TEMPLATED];
  for (let i = 1; i < count; i++) {
    const base = { statusCode: 200, delay: 0, json: String(i) };
    list.push(i % 2 ? { ...base, name: `e${i}` } : { ...base, name: `p${i}`, path: `r${i}/:id/items` });
  }
  return list;
}

/** A data file holding `records`, written through the store as the server will read it. */
async function dataFile(dir, name, records) {
  const file = join(dir, `${name}.sqlite`);
  const store = await openMockStore(file);
  for (const record of records) await store.put(record);
  await store.close();
  return file;
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'snippetkit-bench-'));
  const children = [];
  const start = async (args, env) => {
    const child = await startChild(args, env);
    children.push(child);
    return child.url;
  };
  try {
    const serveMocks = async (name, count) =>
      start([CLI, 'serve-mocks', '--port', '0', '--data', await dataFile(dir, name, endpoints(count))]);
    const small = await serveMocks('ten', 10);
    const big = await serveMocks('many', 10_000);
    const path = '/endpoint/users/42?q=x';
    const sample = await (await fetch(small + path)).text();
    writeFileSync(join(dir, 'sample.json'), sample);
    const bare = await start([BARE], { BODY_FILE: join(dir, 'sample.json') });
    const rows = [];

    const targets = { subject: small + path, bare };
    for (const url of Object.values(targets)) await load({ url, duration: 1 }); // warm up
    log('mock templated :param, 3 responses: measuring');
    const templated = await interleaved((url) => load({ url }), targets);
    rows.push(throughputRow('mock templated :param, 3 responses', templated.subject, templated.bare));

    log('route lookup over HTTP, 10,000 endpoints vs 10: measuring');
    const hit = '/endpoint/r4/7/items';
    for (const url of [big + hit, small + hit]) await load({ url, duration: 1 }); // warm up
    const lookup = await interleaved((url) => load({ url }), { subject: big + hit, bare: small + hit }, 'p50');
    const { subject, bare: base } = lookup;
    // Against the 10-endpoint server, not bare node:http: the ratio is of p50 latency, ≤ 1.2 wanted.
    rows.push({
      ...throughputRow('route lookup over HTTP, 10,000 vs 10', subject, base),
      ratio: (subject.p50 / base.p50).toFixed(2),
      'bare p99 ms': `${base.p99} (p50 ${base.p50})`,
    });
    rows.push(lookupRow());
    return rows;
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** In process: p50 of batches of parameter-path lookups, 10,000 routes against 10. */
function lookupRow() {
  const table = (count) => {
    const routes = new RouteTable();
    for (const e of endpoints(count)) routes.set(e.name, e.path ?? e.name, undefined, e.name);
    return routes;
  };
  const p50 = (routes) => {
    const batches = [];
    for (let b = 0; b < 200; b++) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < 1000; i++) routes.find('GET', 'r4/7/items');
      batches.push(Number(process.hrtime.bigint() - start) / 1000);
    }
    return batches.sort((a, b) => a - b)[100];
  };
  const many = table(10_000);
  const few = table(10);
  p50(many), p50(few); // warm up
  const [manyNs, fewNs] = [p50(many), p50(few)];
  return {
    benchmark: 'route lookup in process, 10,000 vs 10',
    'req/s': '-',
    'bare req/s': '-',
    ratio: (manyNs / fewNs).toFixed(2),
    'p50 ms': `${Math.round(manyNs)} ns`,
    'p99 ms': '-',
    'bare p99 ms': `${Math.round(fewNs)} ns`,
  };
}

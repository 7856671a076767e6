// Route rows (issue 12): a templated endpoint with a :param path and three responses against a bare
// node:http server sending the same bytes (server CPU per request and req/s), and lookup hits with
// 10,000 endpoints (mixed static and parameter paths) against the same hits with 10: p50 latency of
// sequential requests over HTTP, and of the lookup alone in process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pairedP50s } from './latency-client.js';
import { MOCK, load, log, startBareLike, startChild } from './lib.js';
import { median, paired, versusBare, versusBase } from './rounds.js';

import { RouteTable } from '../dist/mocks/store/route-table.js';
import { openMockStore } from '../dist/mocks/store/open-store.js';

/** Sequential requests per server per round in the lookup rows over HTTP. */
const LOOKUPS = 5000;

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
    return child;
  };
  try {
    const serveMocks = async (name, count) => start([MOCK], { DATA_FILE: await dataFile(dir, name, endpoints(count)) });
    const small = await serveMocks('ten', 10);
    const big = await serveMocks('many', 10_000);
    const rows = [];

    const title = 'mock templated :param, 3 responses';
    const url = `${small.url}/endpoint/users/42?q=x`;
    const bare = await startBareLike(url, dir);
    children.push(bare);
    const targets = { subject: { url, pid: small.pid }, base: bare };
    for (const server of Object.values(targets)) await load(server, { duration: 1 }); // warm up
    log(`${title}: measuring`);
    rows.push(versusBare(title, await paired(load, targets), '≥ 0.4'));

    for (const [kind, hit] of [
      ['parameter', '/endpoint/r4/7/items'],
      ['static', '/endpoint/e3'],
    ]) {
      const urls = { subject: big.url + hit, base: small.url + hit };
      await pairedP50s(urls, LOOKUPS, 1); // warm up
      log(`route lookup over HTTP, ${kind} hit, 10,000 endpoints vs 10: measuring`);
      rows.push(versusBase(`route ${kind} hit over HTTP, 10,000 vs 10`, await pairedP50s(urls, LOOKUPS), '≤ 1.2'));
    }
    rows.push(await lookupRow());
    return rows;
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** In process: p50 of batches of 1,000 parameter-path lookups, 10,000 routes against 10, in paired rounds. */
async function lookupRow() {
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
      batches.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    return { p50Us: median(batches) };
  };
  const tables = { subject: table(10_000), base: table(10) };
  await paired(p50, tables, 1); // warm up
  return versusBase('route parameter lookup in process, 10,000 vs 10', await paired(p50, tables), '≤ 1.2');
}

// `npm run bench`: every benchmark file's rows in two tables (see bench/README.md), saved to bench/results.json.
// A new group (e.g. bins) is one more module exporting `run()` that returns rows.
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { printTable } from './lib.js';

// BENCH_ONLY=bins, =mocks or =routes runs one group.
const only = process.env.BENCH_ONLY;
const names = ['mocks', 'routes', 'bins', 'joint', 'list', 'dir', 'cluster', 'startup', 'node-api', 'prism'].filter((name) => !only || name === only);
const groups = await Promise.all(names.map((name) => import(`./${name}.js`)));

// The load average before and after: figures from a busy machine are read with that in mind.
const before = loadavg();
const rows = [];
for (const group of groups) rows.push(...(await group.run()));
// Latency rows against a baseline of ours have their own columns: a second table.
const latency = rows.filter((row) => 'p50 µs' in row);
console.log();
printTable(rows.filter((row) => !latency.includes(row)));
console.log();
printTable(latency);
const load = { before, after: loadavg() };
console.log(`\nload average before ${before.map(fix).join(' ')}, after ${load.after.map(fix).join(' ')}`);
const results = { date: new Date().toISOString(), node: process.version, load, rows };
const file = new URL('./results.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nsaved ${file.pathname}`);

function fix(n) {
  return n.toFixed(2);
}

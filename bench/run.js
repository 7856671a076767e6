// `npm run bench`: every benchmark file's rows in one table, saved to bench/results.json.
// A new group (e.g. bins) is one more module exporting `run()` that returns rows.
import { writeFileSync } from 'node:fs';
import { printTable } from './lib.js';

// BENCH_ONLY=bins, =mocks or =routes runs one group.
const only = process.env.BENCH_ONLY;
const names = ['mocks', 'routes', 'bins'].filter((name) => !only || name === only);
const groups = await Promise.all(names.map((name) => import(`./${name}.js`)));

const rows = [];
for (const group of groups) rows.push(...(await group.run()));
console.log();
printTable(rows);
const file = new URL('./results.json', import.meta.url);
writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, rows }, null, 2)}\n`);
console.log(`\nsaved ${file.pathname}`);

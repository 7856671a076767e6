// Fills a bins SQLite file with `revisions` revisions spread over bins of `perBin` revisions each,
// as an earlier release wrote them (Keyv records in namespace `bins`, plain JSON values), in one transaction;
// a server's first start on the file moves them into the bins' own tables (docs/bin-api.md, "Storage").
// Usage: node bench/fill-bins.js FILE REVISIONS [PER_BIN]
import sqlite3 from 'sqlite3';

export async function fillBins(file, revisions, perBin = 10) {
  const db = new sqlite3.Database(file);
  const run = (sql, ...params) =>
    new Promise((resolve, reject) => db.run(sql, params, (err) => (err ? reject(err) : resolve())));
  await run('PRAGMA journal_mode=WAL');
  await run('CREATE TABLE IF NOT EXISTS keyv(key VARCHAR(255) PRIMARY KEY, value TEXT )');
  await run('BEGIN');
  const insert = db.prepare('INSERT OR REPLACE INTO keyv (key, value) VALUES (?, ?)');
  const put = (key, value) =>
    new Promise((resolve, reject) => insert.run(`bins:${key}`, JSON.stringify({ value }), (err) => (err ? reject(err) : resolve())));
  const created = new Date().toISOString();
  const bins = Math.ceil(revisions / perBin);
  for (let b = 0; b < bins; b++) {
    const bin = `fill${b}`;
    const count = Math.min(perBin, revisions - b * perBin);
    for (let rev = 1; rev <= count; rev++) {
      await put(`${bin}/${rev}`, {
        html: `<h1>Bin ${b} revision ${rev}</h1>\n<p>Some text to make this a realistic size.</p>`,
        javascript: `document.querySelector('h1').onclick = () => alert(${rev});`,
        css: `h1 { color: hsl(${rev * 7}, 60%, 40%); }`,
        settings: {},
        created,
      });
    }
    await put(bin, { latest: count, next: count + 1, created, updated: created });
  }
  await new Promise((resolve) => insert.finalize(resolve));
  await run('COMMIT');
  await new Promise((resolve) => db.close(resolve));
  return { bins };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const [file, revisions, perBin] = process.argv.slice(2);
  const started = Date.now();
  const { bins } = await fillBins(file, Number(revisions), Number(perBin ?? 10));
  console.log(`${revisions} revisions in ${bins} bins written to ${file} in ${Date.now() - started} ms`);
}

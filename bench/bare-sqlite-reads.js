// The baseline for reads that miss the cache: a bare node:http server that answers GET /api/:bin/:rev
// from the bins' own table with ONE prepared statement (the server under test, with its caches off,
// runs one too) and sends the revision as JSON, nothing else. DATA_FILE is a bins SQLite file a
// server has already moved into its tables; it is only read. Prints its URL like snippetkit.
import { createServer } from 'node:http';
import sqlite3 from 'sqlite3';

const db = new sqlite3.Database(process.env.DATA_FILE, sqlite3.OPEN_READONLY);
const select = db.prepare('SELECT html, javascript, css, settings, created FROM bin_revisions WHERE bin = ? AND rev = ?');

const server = createServer((req, res) => {
  const [, bin, rev] = /^\/api\/([^/]+)\/(\d+)$/.exec(req.url ?? '') ?? [];
  select.all(bin, Number(rev), (err, rows) => {
    const row = rows?.[0];
    const status = err ? 500 : row ? 200 : 404;
    const body = row ? JSON.stringify({ ...row, settings: JSON.parse(row.settings), url: bin, snapshot: Number(rev) }) : '{"error":"not found"}';
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(body);
  });
});
server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
  console.log(`bare node:http + SQLite reads on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => {
  server.close(() => select.finalize(() => db.close(() => process.exit(0))));
  server.closeIdleConnections();
});

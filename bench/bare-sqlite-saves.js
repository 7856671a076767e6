// The baseline for saves: a bare node:http server that does a save's storage work and nothing else.
// It reads the form body, then writes the revision and the bin's head with ONE prepared statement
// (an insert into a view whose trigger writes both rows, as the bins' own tables do), on SQLite in
// WAL mode with synchronous=NORMAL, and answers the same JSON shape. Numbers come from memory: no
// checks, no caches, no conditional write. DATA_FILE is the SQLite file. Prints its URL like snippetkit.
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import sqlite3 from 'sqlite3';

const db = new sqlite3.Database(process.env.DATA_FILE);
const exec = (sql) => new Promise((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
await exec(`PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;
  CREATE TABLE heads (bin TEXT PRIMARY KEY, latest INTEGER NOT NULL, updated TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE revisions (bin TEXT NOT NULL, rev INTEGER NOT NULL, html TEXT NOT NULL, javascript TEXT NOT NULL,
    css TEXT NOT NULL, created TEXT NOT NULL, PRIMARY KEY (bin, rev));
  CREATE VIEW save AS SELECT NULL AS bin, NULL AS rev, NULL AS html, NULL AS javascript, NULL AS css, NULL AS created;
  CREATE TRIGGER save_insert INSTEAD OF INSERT ON save BEGIN
    INSERT INTO revisions VALUES (NEW.bin, NEW.rev, NEW.html, NEW.javascript, NEW.css, NEW.created);
    INSERT INTO heads VALUES (NEW.bin, NEW.rev, NEW.created)
      ON CONFLICT (bin) DO UPDATE SET latest = excluded.latest, updated = excluded.updated;
  END;`);
const insert = db.prepare('INSERT INTO save VALUES (?, ?, ?, ?, ?, ?)');
const next = new Map();

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const form = new URLSearchParams(Buffer.concat(chunks).toString());
    const named = /^\/api\/([^/]+)\/save$/.exec(req.url ?? '')?.[1];
    const bin = named ?? randomBytes(6).toString('hex');
    const rev = next.get(bin) ?? 1;
    next.set(bin, rev + 1);
    const created = new Date().toISOString();
    insert.run(bin, rev, form.get('html') ?? '', form.get('javascript') ?? '', form.get('css') ?? '', created, (err) => {
      const body = err ? JSON.stringify({ error: err.message }) : JSON.stringify({ url: bin, snapshot: rev, summary: '' });
      res.writeHead(err ? 500 : 200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(body);
    });
  });
});
server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
  console.log(`bare node:http + SQLite on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => {
  server.close(() => insert.finalize(() => db.close(() => process.exit(0))));
  server.closeIdleConnections();
});

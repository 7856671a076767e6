// The baseline: a bare node:http server sending fixed bytes. BODY_FILE holds the body; STATUS, HEADERS
// (a JSON object), DELAY (ms) mirror the response under test (see startBareLike in lib.js).
// It prints its URL like snippetkit does.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const body = readFileSync(process.env.BODY_FILE);
const status = Number(process.env.STATUS ?? 200);
const delay = Number(process.env.DELAY ?? 0);
const headers = JSON.parse(process.env.HEADERS ?? '{"content-type":"application/json; charset=utf-8"}');
const head = [...Object.entries(headers).flat(), 'Content-Length', String(body.length)];
const send = (res) => {
  res.writeHead(status, head);
  res.end(body);
};

const server = createServer((req, res) => {
  if (delay > 0) setTimeout(send, delay, res);
  else send(res);
});
// The same backlog as snippetkit's listen(), so a burst of connections is not the difference.
server.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1', backlog: 4096 }, () => {
  console.log(`bare node:http on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { method: string; url: string; body: string };
export type Answer = { status: number; json: unknown };

/**
 * An HTTP server that answers like the mock API with what `answer` returns, and records each request:
 * for checking exactly what the CLI sends, and how it shows answers of fields a real server gains
 * on other branches.
 */
export async function startStubServer(answer: (request: Received) => Answer) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      // Mock commands first ask whether this is a joint server (snippetkit serve); a mock server says no.
      if (req.method === 'GET' && req.url === '/api/whoami') {
        res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ success: false, message: 'no route for GET /api/whoami' }));
        return;
      }
      const request = { method: req.method ?? '', url: req.url ?? '', body };
      received.push(request);
      const { status, json } = answer(request);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

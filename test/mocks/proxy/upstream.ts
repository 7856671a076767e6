import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the upstream server received. */
export type Received = { method: string; url: string; headers: IncomingHttpHeaders; body: string };

export type Upstream = {
  url: string;
  received: Received[];
  /** How it answers; by default 200 with a JSON echo of the request line. */
  answer: (req: IncomingMessage, res: ServerResponse, body: string) => void;
  close(): Promise<void>;
};

/** A real node:http server on 127.0.0.1 port 0 standing in for the API a proxy forwards to. Always close it. */
export async function startUpstream(): Promise<Upstream> {
  const upstream: Upstream = {
    url: '',
    received: [],
    answer: (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, url: req.url }));
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      upstream.received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      upstream.answer(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return upstream;
}

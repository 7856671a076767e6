import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RunningServer = {
  server: Server;
  /** e.g. http://127.0.0.1:3000 */
  url: string;
  port: number;
  /** Stop accepting, let in-flight requests finish (up to `graceMs`), then drop what is left. */
  close(graceMs?: number): Promise<void>;
};

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export async function listen(handler: Handler, port: number, host: string): Promise<RunningServer> {
  const server = createServer(handler);
  // A slow client that trickles its headers or body is cut off instead of holding a socket forever.
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    // Node's default backlog (511) drops part of a burst of new connections, and each dropped SYN
    // is retried a second later: 1,000 clients at once took 1.5 s instead of 0.5 s. The kernel caps
    // it at net.core.somaxconn.
    server.listen({ port, host, backlog: 4096 }, () => {
      server.off('error', reject);
      resolvePromise();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    port: address.port,
    url: `http://${shownHost}:${address.port}`,
    close: (graceMs = 5000) => closeServer(server, graceMs),
  };
}

function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolvePromise();
    });
    // Keep-alive sockets with no request in flight would hold close() open (vite does the same).
    server.closeIdleConnections();
  });
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { upgradeThrough } from './upgrade.js';

export type RunningServer = {
  server: Server;
  /** e.g. http://127.0.0.1:3000 */
  url: string;
  port: number;
  /** Stop accepting, let in-flight requests finish (up to `graceMs`), then drop what is left. */
  close(graceMs?: number): Promise<void>;
};

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export type ListenOptions = {
  /** The whole request (headers and body) must arrive within this; else a 408 and the socket closes. */
  requestTimeoutMs?: number;
};

/**
 * How long an idle keep-alive connection stays open. Longer than the balancers in front of us keep
 * one (nginx's upstream keepalive_timeout and AWS load balancers: 60 s), so that they, not we, close
 * it: a connection we close as a balancer sends on it resets that request, a 502 for a POST
 * (Node's default, 5 s, did so; seen as ten 502s of 200 saves through a balancer under load).
 */
export const KEEP_ALIVE_MS = 65_000;

export async function listen(handler: Handler, port: number, host: string, options: ListenOptions = {}): Promise<RunningServer> {
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  // A slow client that trickles its headers or body is cut off instead of holding a socket forever.
  // Node checks these deadlines every connectionsCheckingInterval (30 s by default): check often.
  const server = createServer(
    {
      requestTimeout,
      headersTimeout: Math.min(20_000, requestTimeout),
      connectionsCheckingInterval: Math.min(1000, requestTimeout / 2),
      keepAliveTimeout: KEEP_ALIVE_MS,
    },
    handler,
  );
  // WebSocket endpoints: an upgrade goes through the same handler (upgrade.ts).
  const upgraded = new Set<Duplex>();
  server.on('upgrade', upgradeThrough(handler, requestTimeout, upgraded));
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
    close: (graceMs = 5000) => closeServer(server, graceMs, upgraded),
  };
}

function closeServer(server: Server, graceMs: number, upgraded: Set<Duplex>): Promise<void> {
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      for (const socket of upgraded) socket.destroy();
    }, graceMs);
    timer.unref();
    // Keep-alive sockets with no request in flight would hold close() open (vite does the same),
    // and so would one that goes idle after its last in-flight answer: sweep until all are gone.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.close(() => {
      clearTimeout(timer);
      clearInterval(sweep);
      resolvePromise();
    });
    server.closeIdleConnections();
  });
}

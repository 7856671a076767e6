import { connect, type Socket } from 'node:net';

/** An event stream held open by a client that read the status line and stopped reading. */
export type IdleStream = { socket: Socket; status: number; /** the first bytes of the answer */ first: string };

/**
 * Opens `count` event streams on `path` as an attacker would, the i-th from `addresses[i % n]`
 * (on loopback any 127.0.0.x is a source address): each sends the GET, reads the first bytes
 * of the answer, then pauses for good. Resolves once every answer has started.
 */
export function openIdleStreams(url: string, path: string, count: number, addresses: string[]): Promise<IdleStream[]> {
  const { hostname, port } = new URL(url);
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      new Promise<IdleStream>((resolve, reject) => {
        const socket = connect({ host: hostname, port: Number(port), localAddress: addresses[i % addresses.length] });
        socket.once('error', reject);
        socket.once('data', (chunk: Buffer) => {
          socket.pause();
          socket.off('error', reject);
          socket.on('error', () => {}); // the server may drop it: that is what the tests look for
          const first = chunk.toString('utf8');
          resolve({ socket, first, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(first)?.[1] ?? 0) });
        });
        socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAccept: text/event-stream\r\n\r\n`);
      }),
    ),
  );
}

/** How many streams got each status, e.g. { 200: 50, 503: 150 }. */
export function statuses(streams: IdleStream[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of streams) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** `count` source addresses 127.0.0.<first>, 127.0.0.<first + 1>, ... */
export function loopbackAddresses(first: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `127.0.0.${first + i}`);
}

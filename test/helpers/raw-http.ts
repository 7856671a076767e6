import { connect } from 'node:net';

export type RawAnswer = { status: number; headers: string; body: string };

/**
 * Sends bytes exactly as given (no URL normalisation, no header checks, unlike fetch) and reads
 * the answer until the server closes or `timeoutMs` passes. The request should say Connection: close.
 */
export function rawRequest(url: string, request: string | Buffer, timeoutMs = 10_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error('no answer in time')), timeoutMs);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', (err) => {
      clearTimeout(timer);
      if (chunks.length > 0) finish();
      else reject(err);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      finish();
    });
    socket.write(request);
    function finish() {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const head = split === -1 ? text : text.slice(0, split);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, headers: head, body: split === -1 ? '' : dechunk(head, text.slice(split + 4)) });
    }
  });
}

function dechunk(head: string, body: string): string {
  if (!/transfer-encoding: chunked/i.test(head)) return body;
  let out = '';
  let rest = body;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

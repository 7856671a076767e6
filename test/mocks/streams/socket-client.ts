import WebSocket from 'ws';

/** A `ws` client that keeps every message it gets, for tests: next() waits for the next unread one. */
export type TestSocket = {
  ws: WebSocket;
  next(ms?: number): Promise<string>;
  /** Resolves with the close code once the connection has closed. */
  closed: Promise<{ code: number; reason: string }>;
  send(text: string | Buffer): void;
  close(): void;
};

export async function openSocket(url: string, options: WebSocket.ClientOptions = {}): Promise<TestSocket> {
  const ws = new WebSocket(url.replace(/^http/, 'ws'), options);
  const messages: string[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data: Buffer) => {
    messages.push(data.toString());
    waiters.splice(0).forEach((wake) => wake());
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      waiters.splice(0).forEach((wake) => wake());
    }),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => reject(Object.assign(new Error(`refused: ${res.statusCode} ${body}`), { status: res.statusCode, body })));
    });
    ws.once('error', reject);
  });
  ws.on('error', () => {});
  let read = 0;
  return {
    ws,
    closed,
    async next(ms = 10_000) {
      const deadline = Date.now() + ms;
      while (read >= messages.length) {
        if (ws.readyState === ws.CLOSED) throw new Error('closed before the next message');
        if (Date.now() > deadline) throw new Error(`no message within ${ms} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, Math.max(0, deadline - Date.now())).unref();
        });
      }
      return messages[read++]!;
    },
    send: (text) => ws.send(text),
    close: () => ws.close(),
  };
}

/** The status and JSON body of a refused handshake. */
export async function refusedSocket(url: string, options: WebSocket.ClientOptions = {}): Promise<{ status: number; body: { message: string } }> {
  try {
    const socket = await openSocket(url, options);
    socket.close();
  } catch (err) {
    const { status, body } = err as { status?: number; body?: string };
    if (status === undefined) throw err;
    return { status, body: JSON.parse(body!) as { message: string } };
  }
  throw new Error('the handshake was accepted');
}

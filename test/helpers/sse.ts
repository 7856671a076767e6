import { createParser } from 'eventsource-parser';
import { get, type IncomingMessage } from 'node:http';

/** One Server-Sent Event as a test reads it; comments (keep-alives) have event ":". */
export type SseEvent = { event: string; data: string };

export type SseClient = {
  status: number;
  headers: Headers;
  /** The next event named `name` (or any of `name`), skipping others; rejects after `ms` or once the stream ends. */
  next(name: string | string[], ms?: number): Promise<SseEvent>;
  /** The body of an answer that is not a stream (a 404, a 503), as text. */
  text(): Promise<string>;
  /** Resolves when the server ends or drops the stream (or close() does). */
  ended: Promise<void>;
  close(): void;
};

export type SseOptions = {
  /** The client's source address: another 127.0.0.x on loopback is another client as the server counts. */
  localAddress?: string;
};

/** Opens an event stream as EventSource would (Accept: text/event-stream) and parses what arrives. */
export async function openSse(url: string, options: SseOptions = {}): Promise<SseClient> {
  const events: SseEvent[] = [];
  const waiters: (() => void)[] = [];
  const wake = () => waiters.splice(0).forEach((resolve) => resolve());
  const parser = createParser({
    onEvent: ({ event, data }) => events.push({ event: event ?? 'message', data }),
    onComment: (comment) => events.push({ event: ':', data: comment.trim() }),
  });
  const req = get(url, { headers: { accept: 'text/event-stream' }, localAddress: options.localAddress });
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  });
  req.on('error', () => {}); // close() aborts
  let done = false;
  const ended = new Promise<void>((resolve) => res.once('close', resolve)).then(() => {
    done = true;
    wake();
  });
  res.setEncoding('utf8');
  let body = '';
  res.on('data', (chunk: string) => {
    if (res.statusCode !== 200) body += chunk;
    parser.feed(chunk);
    wake();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
  return {
    status: res.statusCode ?? 0,
    headers,
    async next(name, ms = 10_000) {
      const deadline = Date.now() + ms;
      const names = typeof name === 'string' ? [name] : name;
      for (;;) {
        const index = events.findIndex((e) => names.includes(e.event));
        if (index !== -1) return events.splice(0, index + 1).pop()!;
        const left = deadline - Date.now();
        if (done) throw new Error(`the stream ended before a "${names.join('" or "')}" event`);
        if (left <= 0) throw new Error(`no "${names.join('" or "')}" event within ${ms} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, left);
        });
      }
    },
    ended,
    text: () => ended.then(() => body),
    close: () => req.destroy(),
  };
}

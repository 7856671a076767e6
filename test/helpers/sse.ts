/** One Server-Sent Event as a test reads it; comments (keep-alives) have event ":". */
export type SseEvent = { event: string; data: string };

export type SseClient = {
  status: number;
  headers: Headers;
  /** The next event named `name` (skipping others), or a rejection after `ms`. */
  next(name: string, ms?: number): Promise<SseEvent>;
  close(): void;
};

/** Opens an event stream as EventSource would (Accept: text/event-stream) and parses what arrives. */
export async function openSse(url: string): Promise<SseClient> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
  const events: SseEvent[] = [];
  const waiters: (() => void)[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) events.push({ event: ':', data: line.slice(1).trim() });
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length) events.push({ event, data: data.join('\n') });
          waiters.splice(0).forEach((wake) => wake());
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    async next(name, ms = 2000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const index = events.findIndex((e) => e.event === name);
        if (index !== -1) return events.splice(0, index + 1).pop()!;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no "${name}" event within ${ms} ms`);
        await new Promise<void>((wake) => {
          waiters.push(wake);
          setTimeout(wake, left);
        });
      }
    },
    close: () => controller.abort(),
  };
}

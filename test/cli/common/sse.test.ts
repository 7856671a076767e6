import { expect } from 'chai';
import { readEvents, type ServerEvent } from '../../../src/cli/common/sse.js';

/** A body delivered in the given chunks, as a network would split it. */
function body(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>): Promise<ServerEvent[]> {
  const events: ServerEvent[] = [];
  for await (const event of readEvents(stream)) events.push(event);
  return events;
}

describe('readEvents (the CLI\'s event-stream reader)', () => {
  it('reads named events, skipping comments and retry lines', async () => {
    const events = await all(body('retry: 2000\nevent: log\ndata: []\n\n: keep-alive\n\nevent: request\ndata: {"a":1}\n\n'));
    expect(events).to.deep.equal([
      { event: 'log', data: '[]' },
      { event: 'request', data: '{"a":1}' },
    ]);
  });

  it('joins multi-line data and defaults the name to message', async () => {
    expect(await all(body('data: one\ndata: two\n\n'))).to.deep.equal([{ event: 'message', data: 'one\ntwo' }]);
  });

  it('reassembles events split across chunks and CRLF line ends', async () => {
    const events = await all(body('event: req', 'uest\r\ndata: {"b"', ':2}\r\n', '\r\nevent: x\r\ndata: y\r\n\r\n'));
    expect(events).to.deep.equal([
      { event: 'request', data: '{"b":2}' },
      { event: 'x', data: 'y' },
    ]);
  });
});

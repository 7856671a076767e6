import { EventSourceParserStream } from 'eventsource-parser/stream';

/** One Server-Sent Event: its name (`message` when none is given) and its data lines joined. */
export type ServerEvent = { event: string; data: string };

/** Reads a text/event-stream body event by event until the server ends it; comments and retry hints are skipped. */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  const events = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const { event, data } of events) yield { event: event ?? 'message', data };
}

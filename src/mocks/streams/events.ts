import type { IncomingMessage, ServerResponse } from 'node:http';
import { CpuBudgetExceeded, startCpuBudget } from '../../gates/cpu-budget.js';
import { corsHeaders } from '../../http/cors.js';
import { createEventStreams } from '../../http/event-stream.js';
import { clientIp, isoNow } from '../log/request-log.js';
import type { StreamEvent } from '../record/record.js';
import { compileData } from '../record/stream-script.js';
import { ENDPOINT_CORS } from '../serve/answer-head.js';
import { requestInput } from '../serve/request-input.js';
import type { Endpoint } from '../store/endpoint.js';
import { newCompileBudget, TemplateError, useCpuBudget, type Render } from '../templates/template.js';
import type { Connection } from './connections.js';
import { logSource } from './stream-log.js';
import type { SocketOptions } from './sockets.js';

export type EventOptions = SocketOptions & { keepAliveMs: number };

/** How long a browser waits before it reconnects to an event stream that ended. */
const RETRY_MS = 1000;

/**
 * Serves endpoints of kind `sse` through the one event-stream server (../../http/event-stream.ts):
 * each connection plays the events from the start, or after the one whose id a reconnecting
 * browser sends as Last-Event-ID, once or round and round with `loop`; one timer at a time.
 */
export function createEventEndpoints(options: EventOptions) {
  const { connections, log } = options;
  const { limits } = connections;
  const streams = createEventStreams({
    keepAliveMs: options.keepAliveMs,
    retryMs: RETRY_MS,
    maxPerTopic: limits.maxPerEndpoint,
    maxPerAddress: limits.maxPerAddress,
    maxTotal: Number.MAX_SAFE_INTEGER,
    maxBuffered: limits.maxBuffered,
    ...(options.account && { account: options.account }),
  });
  const compiled = new WeakMap<Endpoint, { event: StreamEvent; render: Render }[]>();
  const cors = options.cors ? Object.fromEntries(corsHeaders(ENDPOINT_CORS)) : {};

  function serve(req: IncomingMessage, res: ServerResponse, endpoint: Endpoint, params: Record<string, string>): void {
    const { name, stream: script } = endpoint.record;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return options.refuse(res, 405, `${req.method} is not allowed here; allowed: GET, HEAD (an event stream)`, { Allow: 'GET, HEAD' });
    }
    const ip = clientIp(req, options.trustProxy) ?? '';
    const refusal = req.method === 'GET' ? connections.refusal(name, ip) : undefined;
    if (refusal) return options.refuse(res, 503, refusal, { 'Retry-After': '5' });
    const opened = streams.open(req, res, name, ip, cors);
    if ('refused' in opened) return options.refuse(res, 503, opened.refused, { 'Retry-After': '5' });
    if (req.method === 'HEAD') return;
    let events = compiled.get(endpoint);
    if (!events) {
      const budget = newCompileBudget();
      events = script!.events.map((event, i) => ({ event, render: compileData(event.data, `events[${i}].data`, budget) }));
      compiled.set(endpoint, events);
    }
    const { reader } = opened;
    const id = connections.number();
    const from = logSource(req, options.trustProxy);
    const base = requestInput(req, params, '');
    let timer: NodeJS.Timeout | undefined;
    const end = () => res.end();
    const send = (text: string) => (res.writableEnded ? false : (reader.send('message', text), true));
    const connection: Connection = { id, endpoint, ip, since: isoNow(), end, send };
    connections.add(connection);
    endpoint.stats.hits++;
    log(endpoint, from, { connection: id, event: 'open' }, '', 200);
    res.once('close', () => {
      clearTimeout(timer);
      connections.remove(connection);
      log(endpoint, from, { connection: id, event: 'close' });
    });

    const play = (i: number) => {
      const list = events!;
      if (i >= list.length) {
        if (!script!.loop) return;
        i = 0;
      }
      const { event, render } = list[i]!;
      timer = setTimeout(() => {
        if (!options.current(endpoint)) return end();
        const input = { ...base };
        useCpuBudget(input, startCpuBudget(options.maxRequestCpu));
        let text: string;
        try {
          text = render(input);
        } catch (err) {
          if (!(err instanceof TemplateError || err instanceof CpuBudgetExceeded)) throw err;
          reader.send('error', JSON.stringify({ success: false, message: err.message }));
          return end();
        }
        reader.send(event.event ?? 'message', text, event.id);
        log(endpoint, from, { connection: id, event: 'out' }, text);
        play(i + 1);
      }, event.delay ?? 0);
    };
    const lastId = req.headers['last-event-id'];
    play(resumeAt(script!.events, typeof lastId === 'string' ? lastId : undefined, script!.loop === true));
  }

  return { serve, close: () => streams.close() };
}

/** Where a reconnecting client resumes: after the event whose id it last saw; from the start when none matches. */
function resumeAt(events: StreamEvent[], lastId: string | undefined, loop: boolean): number {
  if (lastId === undefined) return 0;
  const at = events.findIndex((event) => event.id === lastId);
  if (at === -1) return 0;
  return at + 1 >= events.length && loop ? 0 : at + 1;
}

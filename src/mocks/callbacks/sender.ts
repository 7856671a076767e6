import { Agent as HttpAgent, request as httpRequest, type ClientRequest } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { CALLBACK_BYTES, textCost, type MemoryAccount } from '../../gates/memory-budget.js';
import type { CallbackResult } from '../record/record.js';
import type { RenderedCallback } from '../record/callback-templates.js';
import { callbackHosts } from './hosts.js';

/** How long one callback may take, from sending to the end of its answer, by default (--callback-timeout). */
export const DEFAULT_CALLBACK_TIMEOUT_MS = 10_000;
/** Largest rendered body a callback sends. */
export const MAX_CALLBACK_BODY = 1024 * 1024;
/** Longest rendered URL. */
const MAX_CALLBACK_URL = 8 * 1024;
/**
 * The header each callback carries: how many callbacks deep it is (1 for one an answer to a client
 * sent). A callback to a mock endpoint on this machine, this server included, answers with callbacks of
 * its own; past MAX_CALLBACK_DEPTH none are sent, so an endpoint that calls itself cannot loop for ever.
 */
export const CALLBACK_DEPTH_HEADER = 'X-Snippetkit-Callback';
/** How node names it in `req.headers`. */
export const CALLBACK_DEPTH_HEADER_KEY = 'x-snippetkit-callback';
export const MAX_CALLBACK_DEPTH = 3;

/** How deep the request answered is: its CALLBACK_DEPTH_HEADER (node's lower-cased key), 0 without one. */
export function callbackDepth(value: string | string[] | undefined): number {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,2}$/.test(value)) return 0;
  return Number(value);
}

export type CallbackSenderOptions = {
  /** Where callbacks may go besides loopback (--callback-host), each checked by checkCallbackHost. */
  hosts?: readonly string[];
  timeoutMs?: number;
  /** What waiting and travelling callbacks are charged to (the accountant's `callbacks`). */
  account: MemoryAccount;
};

/** A callback ready to go, or why it will not (a template that failed for this request). */
export type Planned = RenderedCallback | { error: string; method: string; url: string };

export type CallbackSender = {
  /**
   * Sends each `planned` callback after its delay, counted from now (the answer was just sent),
   * writing how it went into `results` (same order), then calling `changed`. Never throws.
   */
  start(planned: readonly Planned[], results: CallbackResult[], changed: () => void, depth?: number): void;
  /** Callbacks waiting or on their way. */
  readonly pending: number;
  /** Drops what waits and cuts what travels (shutdown); each says so in its result. */
  close(): void;
};

/** The results a log entry starts with: method and URL as rendered, and the error of one that cannot go. */
export function plannedResults(planned: readonly Planned[]): CallbackResult[] {
  return planned.map((one) => ('error' in one ? { method: one.method, url: one.url, error: one.error } : { method: one.method, url: one.url }));
}

/**
 * Outgoing callbacks: each judged by the hosts policy on its rendered URL, charged to the memory
 * gate while it waits or travels, sent once with no redirect followed (a redirect could lead past the
 * policy) and cut at the time-out. What comes back is read and dropped: only status and time are
 * kept. Nothing here touches the answer already sent.
 */
export function createCallbackSender(options: CallbackSenderOptions): CallbackSender {
  const { account } = options;
  const hosts = callbackHosts(options.hosts);
  const timeoutMs = options.timeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS;
  // Kept-alive sockets per host, a bounded number: a flood of callbacks queues rather than opens thousands.
  const agent = { keepAlive: true, maxSockets: 16 };
  const http = new HttpAgent(agent);
  // node:https (with TLS) at the first https callback: loading it costs every start about 10 ms.
  let https: { agent: HttpsAgent; request: typeof httpRequest } | undefined;
  const secure = () => {
    const module = process.getBuiltinModule('node:https');
    return (https ??= { agent: new module.Agent(agent), request: module.request });
  };
  const live = new Set<{ stop(reason: string): void }>();
  let closed = false;

  const sendOne = (callback: RenderedCallback, result: CallbackResult, changed: () => void, depth: number) => {
    const settle = (outcome: Partial<CallbackResult>) => {
      if (result.status !== undefined || result.error !== undefined) return;
      Object.assign(result, outcome);
      changed();
    };
    if (closed) return settle({ error: 'not sent: the server was closing' });
    if (callback.url.length > MAX_CALLBACK_URL) return settle({ error: `not sent: the URL is over ${MAX_CALLBACK_URL} characters` });
    const judged = hosts.judge(callback.url);
    if (!(judged instanceof URL)) return settle({ error: `not sent: ${judged.refused}` });
    const bodyBytes = callback.body === undefined ? 0 : Buffer.byteLength(callback.body, 'utf8');
    if (bodyBytes > MAX_CALLBACK_BODY) return settle({ error: `not sent: the body is over ${MAX_CALLBACK_BODY} bytes` });
    // The rendered strings while it waits, and the body's bytes too once it is written out.
    const texts = textCost(callback.url) + textCost(JSON.stringify(callback.headers)) + textCost(callback.body ?? '');
    const cost = CALLBACK_BYTES + texts + bodyBytes;
    if (!account.tryCharge(cost)) {
      return settle({ error: `not sent: too many callbacks waiting (their memory budget of ${account.limit} bytes is spent)` });
    }

    let request: ClientRequest | undefined;
    let sentAt = 0;
    const done = () => {
      clearTimeout(timer);
      if (live.delete(handle)) account.release(cost);
    };
    const handle = {
      stop(reason: string) {
        settle({ error: reason });
        request?.destroy();
        done();
      },
    };
    live.add(handle);
    const go = () => {
      const tls = judged.protocol === 'https:' ? secure() : undefined;
      const headers: Record<string, string> = {
        ...callback.headers,
        'User-Agent': 'snippetkit-callback',
        [CALLBACK_DEPTH_HEADER]: String(depth + 1),
      };
      if (callback.body !== undefined) headers['Content-Length'] = String(bodyBytes);
      sentAt = performance.now();
      timer = setTimeout(() => handle.stop(`timed out after ${timeoutMs} ms`), timeoutMs);
      request = (tls?.request ?? httpRequest)(judged, { method: callback.method, headers, agent: tls?.agent ?? http });
      request.on('response', (response) => {
        settle({ status: response.statusCode ?? 0, ms: Math.round(performance.now() - sentAt) });
        // Read to the end so the socket can serve the next callback; the body is not kept.
        response.resume();
        response.on('end', done);
        response.on('error', done);
      });
      request.on('error', (err: Error & { code?: string }) => {
        settle({ error: err.code ? `${err.message} (${err.code})` : err.message });
        done();
      });
      request.end(callback.body);
    };
    let timer: NodeJS.Timeout | undefined = callback.delay > 0 ? setTimeout(go, callback.delay) : undefined;
    if (timer === undefined) go();
  };

  return {
    start(planned, results, changed, depth = 0) {
      planned.forEach((one, i) => {
        if ('error' in one) return;
        if (depth >= MAX_CALLBACK_DEPTH) {
          results[i]!.error = `not sent: the request answered was a callback ${depth} deep, and callbacks of callbacks stop there`;
          return changed();
        }
        sendOne(one, results[i]!, changed, depth);
      });
    },
    get pending() {
      return live.size;
    },
    close() {
      closed = true;
      for (const handle of [...live]) handle.stop('not sent or cut: the server closed');
      http.destroy();
      https?.agent.destroy();
    },
  };
}

import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { corsHeaders } from '../../http/cors.js';
import type { Logger } from '../../server/logger.js';
import { ENDPOINT_CORS, ENDPOINT_SANDBOX } from '../serve/answer-head.js';
import { endToEnd } from '../../http/hop-by-hop.js';
import { upstreamFailure, type UpstreamFailure } from './http.js';
import { isUnrecorded } from './query.js';
import { queryOf } from '../record/recording.js';
import { createRecorder, type RecorderOptions } from './recorder.js';
import type { MockStore } from '../store/store.js';
import type { ProxyHook } from '../serve/endpoint.js';

/** What --proxy and its flags set. */
export type ProxySettings = {
  /** http(s) URL; `/endpoint/<p>` goes to `<target>/<p>`. */
  target: string;
  /** Milliseconds to wait for the answer's head, and the longest silence while its body streams. */
  timeoutMs: number;
  /** Upstream requests at once; past it, a 503. */
  maxConnections: number;
  record: boolean;
  recordCookies: boolean;
  /** Larger answers are passed on but not recorded. */
  maxRecordBytes: number;
  /** Where recordings go: the store when absent; `writeRecordFile` into the folder with --dir. */
  save?: RecorderOptions['save'];
};

export type ProxyOptions = ProxySettings & {
  store: MockStore;
  logger: Logger;
  cors: boolean;
};

export const PROXIED_HEADER = 'x-snippetkit-proxied';

/** Forwards to the target, streaming both ways, and (with `record`) saves each new answer as an endpoint. */
export function createProxy(options: ProxyOptions): ProxyHook {
  const { target, timeoutMs, logger, cors } = options;
  const base = new URL(target);
  const prefix = base.pathname.replace(/\/$/, '');
  // node:https (with TLS) only for an https target: loading it took about 10 ms of every start.
  const send = base.protocol === 'https:' ? process.getBuiltinModule('node:https').request : httpRequest;
  const record = options.record ? createRecorder({ ...options }) : undefined;
  let open = 0;

  const fail = (res: ServerResponse, what: string, failure: UpstreamFailure) => {
    logger.warn(`proxy ${what} -> ${failure.status}: ${failure.cause}`);
    if (res.headersSent) return void res.destroy();
    const message = `the proxy target ${target} did not answer: ${failure.cause}`;
    json(res, failure.status, { success: false, message, target, cause: failure.cause }, cors);
  };

  const forward = (req: IncomingMessage, res: ServerResponse, path: string) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '';
    const what = `${method} ${url}`;
    if (open >= options.maxConnections) {
      const message = `the proxy has ${options.maxConnections} requests upstream already; try again`;
      logger.warn(`proxy ${what} -> 503: ${message}`);
      return json(res, 503, { success: false, message, target }, cors);
    }
    const query = url.includes('?') ? url.slice(url.indexOf('?')) : '';
    const address = new URL(`${base.origin}${prefix}/${path}${query}`);
    // URL parsing resolves `..` and `%2e%2e`: a request must not climb out of the target's base path.
    if (!address.pathname.startsWith(`${prefix}/`)) {
      return json(res, 400, { success: false, message: `the path climbs out of ${target}`, target }, cors);
    }
    open++;
    const started = Date.now();
    // A recording needs whole answers, not a 304 for the client's cache; and it stores text, so ask for it
    // unencoded (an encoded answer is decoded anyway).
    const drop = record ? ['host', 'if-none-match', 'if-modified-since', 'accept-encoding'] : ['host'];
    const headers = endToEnd(req.headers, drop);
    headers.host = base.host;
    if (record) headers['accept-encoding'] = 'identity';
    const upstream = send(address, { method, headers });
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      open--;
      clearTimeout(timer);
    };
    const timer = setTimeout(() => upstream.destroy(timedOut(`no answer within ${timeoutMs} ms`)), timeoutMs);
    upstream.setTimeout(timeoutMs, () => upstream.destroy(timedOut(`silent for ${timeoutMs} ms`)));
    upstream.on('error', (err) => {
      finish();
      if (!res.destroyed) fail(res, what, upstreamFailure(err));
    });
    // A client that leaves takes its upstream request with it.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
      finish();
    });
    upstream.on('response', (answer) => {
      clearTimeout(timer);
      const head = endToEnd(answer.headers);
      head[PROXIED_HEADER] = target;
      if (cors) for (const [name, value] of corsHeaders(ENDPOINT_CORS)) head[name.toLowerCase()] ??= value;
      // A comma joins policies into a list, each enforced: upstream's cannot lift the sandbox.
      const theirs = head['content-security-policy'];
      head['content-security-policy'] = theirs === undefined ? ENDPOINT_SANDBOX : `${theirs}, ${ENDPOINT_SANDBOX}`;
      res.writeHead(answer.statusCode ?? 502, head);
      const chunks: Buffer[] = [];
      let size = 0;
      answer.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (record && size <= options.maxRecordBytes) chunks.push(chunk);
      });
      answer.pipe(res);
      answer.on('end', () => {
        finish();
        logger.info(`proxy ${what} -> ${answer.statusCode} from ${target} (${Date.now() - started} ms)`);
        if (!record) return;
        if (size > options.maxRecordBytes) {
          return logger.warn(`not recorded: ${what}: its ${size}-byte body is over ${options.maxRecordBytes} bytes`);
        }
        const exchange = { method, path, query: queryOf(url), status: answer.statusCode ?? 502 };
        void record({ ...exchange, headers: answer.headers, body: Buffer.concat(chunks) });
      });
    });
    req.pipe(upstream);
  };

  return { forward, passes: (endpoint, req) => isUnrecorded(endpoint.record, req.url ?? '') };
}

function timedOut(message: string): Error {
  return Object.assign(new Error(message), { code: 'ETIMEDOUT' });
}

function json(res: ServerResponse, status: number, value: unknown, cors: boolean): void {
  const body = Buffer.from(JSON.stringify(value));
  const head: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (cors) for (const [name, value] of corsHeaders(ENDPOINT_CORS)) head[name] = value;
  head['content-length'] = String(body.length);
  res.writeHead(status, head);
  res.end(body);
}

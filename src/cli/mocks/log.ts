import type { Command } from 'commander';
import { callApi, checkShape, notOurApi, openStream, type ClientOptions } from '../common/client.js';
import { CliError, EXIT } from '../common/errors.js';
import { check, endpointPath, notFound, mockContext } from './client.js';
import { responseNumber } from '../../shared/response-label.js';
import { parseBinClaim } from '../../shared/bin-claim.js';
import { chalk, type Output } from '../common/output.js';
import { readEvents } from '../common/sse.js';
import { safeLine, safeLines } from '../common/terminal-text.js';

export type MockLogFlags = { follow?: boolean; clear?: boolean };

type LoggedRequest = {
  time: string;
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  body: string;
  /** Which answer was sent: an index in `responses`, null for the endpoint's own (absent from older servers). */
  response?: number | null;
  /** The status sent, null for a fault. */
  status?: number | null;
  fault?: string;
  /** The bin whose page made the request (`fumugi/3`), absent from older servers and other callers. */
  bin?: string;
  /** A GraphQL endpoint's request: its operation's name. */
  operationName?: string;
  /** The callbacks its answer sent; each result once it ended. */
  callbacks?: { method: string; url: string; status?: number; ms?: number; error?: string }[];
  /** On a WebSocket or event-stream endpoint: which connection (0: a broadcast) and what happened on it. */
  socket?: { connection: number; event: string; code?: number };
};

export async function mockLog(name: string, flags: MockLogFlags, command: Command): Promise<void> {
  const { client, out } = await mockContext(command);
  if (flags.clear) {
    const { status, body } = await callApi(client, 'DELETE', `${endpointPath(name)}/requests`);
    check(client, name, status, body);
    if (!flags.follow) return out.result(`cleared the request log of ${name}`, body);
    out.note(`cleared the request log of ${name}`);
  }
  if (flags.follow) return follow(client, out, name);
  const { status, body } = await callApi(client, 'GET', `${endpointPath(name)}/requests`);
  check(client, name, status, body);
  const requests = (body as { requests?: LoggedRequest[] }).requests;
  if (!Array.isArray(requests)) throw notOurApi(client, 'its request log has no requests');
  const oldestFirst = [...requests].reverse(); // the server sends newest first
  if (out.json) return out.result('', oldestFirst);
  const empty = chalk.dim(`${name} has received no requests yet`);
  const text = oldestFirst.length === 0 ? empty : oldestFirst.map(formatRequest).join('\n');
  out.result(text, oldestFirst);
}

/**
 * Follows the endpoint's event stream: the log so far (the `log` event, newest first), then each
 * request as the server records it. Runs until Ctrl+C (a stop by the user: exit 0), or fails when
 * the server goes away.
 */
async function follow(client: ClientOptions, out: Output, name: string): Promise<void> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    const path = `${endpointPath(name)}/events`;
    const res = await openStream(client, path, stop.signal);
    if (!res.ok || !res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
      // a 404 is only "no such endpoint" when the mock server says it
      const head = { status: res.status, contentType: res.headers.get('content-type') };
      checkShape(client, `GET /${path}`, head, await res.text());
      if (res.status === 404) throw notFound(client, name);
      throw notOurApi(client, `GET /${path} answered ${res.status} without an event stream`);
    }
    for await (const { event, data } of readEvents(res.body)) {
      if (event === 'log') {
        for (const request of (JSON.parse(data) as LoggedRequest[]).reverse()) printOne(out, request);
      }
      else if (event === 'request') printOne(out, JSON.parse(data) as LoggedRequest);
    }
  } catch (err) {
    if (stop.signal.aborted) return;
    if (err instanceof SyntaxError) throw notOurApi(client, 'its event stream sent data that is not JSON');
    if (err instanceof CliError) throw err;
    // the connection dropped: reported below like a clean end
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
  }
  if (stop.signal.aborted) return;
  throw new CliError(`the mock server at ${client.server} closed the stream (stopped?)`, EXIT.unreachable);
}

function printOne(out: Output, request: LoggedRequest): void {
  if (out.json) process.stdout.write(`${JSON.stringify(request)}\n`);
  else out.result(formatRequest(request), request);
}

/** `→ 200 default`, `→ 204 #1`, `→ fault reset, #3` (responses[2]); empty when the server does not say. */
function formatAnswer(request: LoggedRequest): string {
  const { socket } = request;
  if (socket) return `  ${chalk.dim('→')} ${safeLine(`connection ${socket.connection || 'all'} ${socket.event}${socket.code === undefined ? '' : ` ${socket.code}`}`)}`;
  if (request.response === undefined) return '';
  const sent = request.fault !== undefined ? `fault ${request.fault}` : String(request.status ?? '');
  const which = request.response === null ? 'default' : responseNumber(request.response);
  return `  ${chalk.dim('→')} ${safeLine(`${sent}${request.fault !== undefined ? ',' : ''} ${which}`)}`;
}

/** `  from bin fumugi/3` for a request a bin's page made (checked as the server checks it); empty otherwise. */
function formatBin(request: LoggedRequest): string {
  const bin = parseBinClaim(request.bin);
  return bin === undefined ? '' : `  ${chalk.dim('from bin')} ${bin}`;
}

/** `  callback POST http://… → 204 in 12 ms` per callback, or its error, or `…` while it is on its way. */
function formatCallbacks(request: LoggedRequest): string {
  if (!Array.isArray(request.callbacks)) return '';
  return request.callbacks
    .map(({ method, url, status, ms, error }) => {
      const said = error !== undefined ? chalk.red(safeLine(String(error))) : status !== undefined ? safeLine(`${status} in ${ms} ms`) : 'on its way';
      return `\n  ${chalk.dim('callback')} ${safeLine(`${method} ${url}`)} ${chalk.dim('→')} ${said}`;
    })
    .join('');
}

function formatRequest(request: LoggedRequest): string {
  const headers = Object.entries(request.headers)
    .map(([k, v]) => `  ${chalk.dim(`${safeLine(k)}:`)} ${safeLine(Array.isArray(v) ? v.join(', ') : String(v))}`)
    .join('\n');
  let body = typeof request.body === 'string' ? request.body : '';
  try {
    if (body) body = JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    // not JSON: shown as it came
  }
  const [time, method, url] = [request.time, request.method, request.url].map((field) => safeLine(String(field)));
  const operation = typeof request.operationName === 'string' ? ` ${chalk.cyan(safeLine(request.operationName))}` : '';
  const line = `${chalk.dim(time)} ${chalk.bold(method)} ${url}${operation}${formatAnswer(request)}${formatBin(request)}${formatCallbacks(request)}`;
  return `${line}\n${headers}${body ? `\n${safeLines(body)}` : ''}\n`;
}

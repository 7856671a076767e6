import type { Command } from 'commander';
import { callApi, checkShape, errorMessage, notOurApi, openStream, type ClientOptions } from './client.js';
import { clientContext } from './client-flags.js';
import { CliError, EXIT } from './errors.js';
import type { MockAddFlags } from './mock-commands.js';
import { chalk, table, type Output } from './output.js';
import { parseJsonFile, readText } from './read-input.js';
import { readEvents } from './sse.js';
import { safeLine, safeLines } from './terminal-text.js';

type Listed = { name: string; statusCode: number; delay: number; hits: number; updated?: string; url?: string };
type LoggedRequest = {
  time: string;
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  body: string;
};

const endpointPath = (name: string) => `api/endpoint/${encodeURIComponent(name)}`;
const servedUrl = (client: ClientOptions, name: string) => `${client.server}/endpoint/${encodeURIComponent(name)}`;

/** `Name: value` → [name, value]; anything else is a usage error. */
export function parseHeader(header: string): [string, string] {
  const colon = header.indexOf(':');
  const name = header.slice(0, colon).trim();
  if (colon <= 0 || name === '') throw new CliError(`--header '${header}' is not 'Name: value'`, EXIT.usage);
  return [name, header.slice(colon + 1).trim()];
}

function notFound(client: ClientOptions, name: string): CliError {
  const hint = '`snippetkit mock list` shows them';
  return new CliError(`no endpoint named ${name} at ${client.server}; ${hint}`, EXIT.notFound);
}

/** Turns a non-2xx answer into a CliError worded for the user. */
function check(client: ClientOptions, name: string, status: number, body: unknown): void {
  if (status === 404) throw notFound(client, name);
  if (status === 409) {
    throw new CliError(`an endpoint named ${name} already exists; pass --force to replace it`, EXIT.refused);
  }
  if (status >= 400) {
    throw new CliError(`the mock server refused it: ${errorMessage(body) ?? `status ${status}`}`, EXIT.refused);
  }
  if (typeof body !== 'object' || body === null || (body as { success?: unknown }).success !== true) {
    throw notOurApi(client, `it answered ${status} without {"success": true}`);
  }
}

export async function mockAdd(name: string, file: string, flags: MockAddFlags, command: Command): Promise<void> {
  const { client, out } = clientContext(command, 'mock');
  const data = parseJsonFile(await readText(file), file);
  const request: Record<string, unknown> = { name, data };
  if (flags.status !== undefined) request.statusCode = flags.status;
  if (flags.delay !== undefined) request.delay = flags.delay;
  if (flags.header.length > 0) request.headers = Object.fromEntries(flags.header.map(parseHeader));
  const { status, body } = flags.force
    ? await callApi(client, 'PUT', endpointPath(name), { json: request })
    : await callApi(client, 'PUT', 'api/endpoint/add', { json: request });
  check(client, name, status, body);
  const saved = body as { statusCode: number; delay: number };
  const url = servedUrl(client, name);
  out.note(`${status === 201 ? 'created' : 'replaced'} ${name}: status ${saved.statusCode}, delay ${saved.delay} ms`);
  out.result(url, { url, created: status === 201, ...(body as object) });
}

export async function mockList(command: Command): Promise<void> {
  const { client, out } = clientContext(command, 'mock');
  const { status, body } = await callApi(client, 'GET', 'api/endpoints');
  check(client, '', status, body);
  const endpoints = (body as { endpoints?: Listed[] }).endpoints;
  if (!Array.isArray(endpoints)) throw notOurApi(client, 'its list has no endpoints');
  if (out.json) return out.result('', endpoints);
  if (endpoints.length === 0) {
    return out.result(chalk.dim('no endpoints yet: add one with `snippetkit mock add NAME FILE.json`'), []);
  }
  const rows = endpoints.map((e) =>
    [e.name, e.statusCode, `${e.delay} ms`, e.hits, e.updated ?? '', e.url ?? servedUrl(client, e.name)].map((cell) =>
      safeLine(String(cell)),
    ),
  );
  out.result(table(['NAME', 'STATUS', 'DELAY', 'HITS', 'UPDATED', 'URL'], rows), endpoints);
}

export async function mockGet(name: string, command: Command): Promise<void> {
  const { client, out } = clientContext(command, 'mock');
  const { status, body } = await callApi(client, 'GET', endpointPath(name));
  check(client, name, status, body);
  const record = body as {
    statusCode: number;
    delay: number;
    headers?: Record<string, string>;
    data: unknown;
    hits?: number;
  };
  const headers = Object.entries(record.headers ?? {})
    .map(([k, v]) => `\n${chalk.dim('header')} ${safeLine(`${k}: ${v}`)}`)
    .join('');
  const settings = safeLine(`status ${record.statusCode}  delay ${record.delay} ms  hits ${record.hits ?? 0}`);
  const data = safeLines(JSON.stringify(record.data, null, 2));
  const text = `${chalk.bold(safeLine(name))}  ${settings}${headers}\n${data}`;
  out.result(text, body);
}

export async function mockRemove(name: string, command: Command): Promise<void> {
  const { client, out } = clientContext(command, 'mock');
  const { status, body } = await callApi(client, 'DELETE', endpointPath(name));
  check(client, name, status, body);
  out.result(`deleted ${name}`, body);
}

export async function mockLog(name: string, flags: { follow?: boolean }, command: Command): Promise<void> {
  const { client, out } = clientContext(command, 'mock');
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
      checkShape(client, `GET /${path}`, res, await res.text());
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
  const line = `${chalk.dim(time)} ${chalk.bold(method)} ${url}`;
  return `${line}\n${headers}${body ? `\n${safeLines(body)}` : ''}\n`;
}

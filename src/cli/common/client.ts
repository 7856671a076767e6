import type { IncomingMessage, RequestOptions } from 'node:http';
import { CliError, EXIT } from './errors.js';

export type ServerKind = 'bin' | 'mock';

export type ClientOptions = {
  /** Base URL, e.g. http://localhost:3000 */
  server: string;
  kind: ServerKind;
  apiKey?: string;
  /**
   * The key a bin server on this machine made for itself (its file, src/bins/auth/generated-key.ts),
   * sent only when the server asks for a key: an open server refuses any key it does not know.
   */
  localKey?: { key: string; file: string };
  /** The file `apiKey` was read from, for the message when it is refused. */
  keyFrom?: string;
  timeoutMs?: number;
  /** Where a mock server's endpoints answer when not at `<server>/endpoint` (a joint server's mock API is under /mocks). */
  endpoints?: string;
  /**
   * For a mock command: the key it knows for the bins (SNIPPETKIT_API_KEY, or the local server's file),
   * sent only once the server turns out to be a joint one, whose mocks may be private (serve --private-mocks).
   */
  binKeys?: Pick<ClientOptions, 'apiKey' | 'localKey'>;
};

export type ApiAnswer = { status: number; body: unknown };

/** What checkShape reads of an answer: fetch's Response and node's IncomingMessage both give it. */
export type AnswerHead = { status: number; contentType: string | null };

const START = { bin: 'snippetkit serve-bins', mock: 'snippetkit serve-mocks' };
const KEY_HINT = {
  bin: 'pass --api-key KEY or set SNIPPETKIT_API_KEY',
  mock: "its mocks are private (serve --private-mocks): pass the bin server's key, SNIPPETKIT_API_KEY=KEY (or save's --api-key)",
};

/**
 * One JSON request to a snippetkit server. Whatever goes wrong becomes a one-line CliError that
 * says what to do: not reachable, key needed, or an answer that is not our API. Other statuses
 * (404, 400, 409 ...) are returned for the command to word.
 */
export async function callApi(
  options: ClientOptions,
  method: string,
  path: string,
  body?: { form?: Record<string, string>; json?: unknown },
): Promise<ApiAnswer> {
  const url = new URL(path, withSlash(options.server));
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.apiKey) headers.Authorization = `token ${options.apiKey}`;
  let payload: string | undefined;
  if (body?.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(body.form).toString();
  } else if (body && 'json' in body) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body.json);
  }
  const signal = AbortSignal.timeout(options.timeoutMs ?? 30_000);
  let res: { head: AnswerHead; location?: string; text: string };
  try {
    res = await request(url, { method, headers, signal }, payload);
  } catch (err) {
    const { code } = err as { code?: string };
    // A server answering 413 reads (drains) a refused body only up to a cap; past it, it closes while
    // the body is still being sent. It was reached: saying it is unreachable sends the user astray.
    if (payload !== undefined && !signal.aborted && (code === 'EPIPE' || code === 'ECONNRESET')) {
      const size = Buffer.byteLength(payload);
      throw new CliError(
        `the ${options.kind} server at ${options.server} closed the connection while a ${size}-byte body was sent: it is likely over the server's limit`,
        EXIT.refused,
      );
    }
    throw unreachable(options, signal.aborted ? signal.reason : err);
  }
  const { head, text } = res;
  const asked = `${method} ${url.pathname}`;
  // Our servers never redirect an API call: a redirect is a proxy or a login page in front of something else.
  if (head.status >= 300 && head.status < 400) {
    throw notOurApi(options, `${asked} answered ${head.status}${res.location ? ` (to ${res.location})` : ''}`);
  }
  const parsed = checkShape(options, asked, head, text);
  if (head.status === 401 || head.status === 403) {
    if (!options.apiKey && options.localKey) {
      // Nothing was done (a 403 comes before any work): the same request again, with the local key.
      const { localKey, ...rest } = options;
      return callApi({ ...rest, apiKey: localKey.key, keyFrom: localKey.file }, method, path, body);
    }
    const said = errorMessage(parsed);
    const refused = options.keyFrom
      ? `refused the key in ${options.keyFrom}`
      : options.apiKey
        ? 'refused the API key'
        : 'needs an API key';
    throw new CliError(`the ${options.kind} server ${refused}${said ? ` (${said})` : ''}: ${KEY_HINT[options.kind]}`, EXIT.auth);
  }
  if (head.status >= 500) {
    throw new CliError(`the ${options.kind} server failed (${head.status} ${errorMessage(parsed) ?? ''})`.trim(), EXIT.badServer);
  }
  return { status: head.status, body: parsed };
}

/**
 * One request with node's http (https for an https URL), the answer read whole as UTF-8. Not fetch: its
 * first request loads undici and compiles its WebAssembly HTTP parser. `mock list` took 0.56 s (0.59 s
 * of CPU) with fetch and 0.25 s with this, against 0.16 s for `node -e 0` (bench/README.md, start-up).
 */
export function request(
  url: URL,
  options: RequestOptions,
  payload: string | undefined,
): Promise<{ head: AnswerHead; location?: string; text: string }> {
  const http = process.getBuiltinModule(url.protocol === 'https:' ? 'node:https' : 'node:http') as typeof import('node:http');
  return new Promise((resolve, reject) => {
    const req = http.request(url, options, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const head = { status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? null };
        resolve({ head, location: res.headers.location, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Opens a long-lived GET (an event stream): no time limit, ended by `signal`; unreachable as in callApi. */
export async function openStream(options: ClientOptions, path: string, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'text/event-stream' };
  // A stream is not tried twice: private mocks are given the local key at once (they ignore one they do not know).
  const key = options.apiKey ?? (options.kind === 'mock' ? options.localKey?.key : undefined);
  if (key) headers.Authorization = `token ${key}`;
  try {
    return await fetch(new URL(path, withSlash(options.server)), { headers, signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw unreachable(options, err);
  }
}

/**
 * The answer's JSON when it has the shape of the API asked for: the mock server's bodies all carry
 * `success`, the bin server's errors carry `error` and never `success`. Anything else (an HTML page,
 * the other snippetkit server, another JSON API) is a notOurApi error naming what answered.
 */
export function checkShape(options: ClientOptions, request: string, res: AnswerHead, text: string): unknown {
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw notOurApi(options, `${request} answered ${res.status} with ${describe(res, text)}`);
  }
  const body = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  const mockShaped = typeof body.success === 'boolean';
  const binError = typeof body.error === 'string' && !mockShaped;
  const ours = options.kind === 'mock' ? mockShaped : !mockShaped && (res.status < 400 || binError);
  if (ours) return parsed;
  const looks = options.kind === 'mock' ? binError && 'bin' : mockShaped && 'mock';
  const guess = looks ? `, which looks like a snippetkit ${looks} server` : '';
  throw notOurApi(options, `${request} answered ${res.status} with ${describe(res, text)}${guess}`);
}

/** The message of a server's error body: JS Bin's `{error}` or the mock server's `{message}`. */
export function errorMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { error, message } = body as { error?: unknown; message?: unknown };
  return typeof error === 'string' ? error : typeof message === 'string' ? message : undefined;
}

export function notOurApi(options: ClientOptions, detail: string): CliError {
  return new CliError(
    `${options.server} does not look like a snippetkit ${options.kind} server: ${detail}; check --server`,
    EXIT.badServer,
  );
}

function unreachable(options: ClientOptions, err: unknown): CliError {
  // node's errors carry their code; fetch's (openStream) carry it on their cause.
  const { code, cause } = err as { code?: string; cause?: { code?: string; message?: string } };
  const why = (err as Error).name === 'TimeoutError' ? 'it did not answer in time' : (code ?? cause?.code ?? cause?.message ?? (err as Error).message);
  return new CliError(
    `cannot reach the ${options.kind} server at ${options.server} (${why}); start one with \`${START[options.kind]}\` or pass --server URL`,
    EXIT.unreachable,
  );
}

function describe(res: AnswerHead, text: string): string {
  const type = res.contentType ?? 'no content type';
  return `${type} (${text.slice(0, 40).replace(/\s+/g, ' ')}${text.length > 40 ? '…' : ''})`;
}

export function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

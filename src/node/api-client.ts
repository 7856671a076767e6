import { Agent, request } from 'node:http';

/** A refusal of a server's HTTP API, as the API gave it: its status, message and the field at fault. */
export class ApiError extends Error {
  readonly status: number;
  readonly field?: string;
  /** The whole JSON answer, for refusals that say more than a message (a failed verification's near misses). */
  readonly answer?: Record<string, unknown>;
  constructor(status: number, message: string, field?: string, answer?: Record<string, unknown>) {
    super(message);
    this.status = status;
    if (field !== undefined) this.field = field;
    if (answer !== undefined) this.answer = answer;
  }
}

/** A refusal of the mock server's management API (docs/mock-api.md). */
export class MockApiError extends ApiError {
  override name = 'MockApiError';
}

/** A refusal of the bin server's REST API (docs/bin-api.md): its `{ error, field? }` as message and field. */
export class BinApiError extends ApiError {
  override name = 'BinApiError';
}

export type ApiClient = {
  /** Sends `body` as JSON (when given) and resolves with the parsed answer; a 4xx or 5xx rejects with the client's error. */
  call<T>(method: string, path: string, body?: unknown): Promise<T>;
  close(): void;
};

export type ApiClientOptions = {
  /** Sent as `Authorization: token KEY` on every call (the bin API's key). */
  key?: string;
  /** What a refusal rejects with; MockApiError by default. */
  Refusal?: typeof MockApiError | typeof BinApiError;
};

/**
 * The object's calls go through the server's own HTTP API, so it can do exactly what the API can and
 * refuses exactly what the API refuses, with the same messages; one kept-alive connection serves them all.
 */
export function apiClient(base: string, { key, Refusal = MockApiError }: ApiClientOptions = {}): ApiClient {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const call = <T>(method: string, path: string, body?: unknown): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const headers: Record<string, string | number> = { accept: 'application/json' };
      if (key !== undefined) headers.authorization = `token ${key}`;
      if (payload) Object.assign(headers, { 'content-type': 'application/json', 'content-length': payload.length });
      const req = request(`${base}${path}`, { method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          // The mock API says what is wrong as `message`, the bin API (JS Bin's shape) as `error`.
          let parsed: { message?: string; error?: string; field?: string } & Record<string, unknown>;
          try {
            parsed = JSON.parse(text);
          } catch {
            return reject(new Refusal(res.statusCode ?? 0, `${method} ${path} answered ${res.statusCode} with no JSON`));
          }
          const status = res.statusCode ?? 0;
          if (status >= 400) {
            const message = parsed?.message ?? parsed?.error ?? `${method} ${path} answered ${status}`;
            return reject(new Refusal(status, message, parsed?.field, parsed ?? undefined));
          }
          resolve(parsed as T);
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  return { call, close: () => agent.destroy() };
}

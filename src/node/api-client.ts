import { Agent, request } from 'node:http';

/** A refusal of the management API, as the HTTP API gave it: its status, message and the field at fault. */
export class MockApiError extends Error {
  readonly status: number;
  readonly field?: string;
  /** The whole JSON answer, for refusals that say more than a message (a failed verification's near misses). */
  readonly answer?: Record<string, unknown>;
  constructor(status: number, message: string, field?: string, answer?: Record<string, unknown>) {
    super(message);
    this.name = 'MockApiError';
    this.status = status;
    if (field !== undefined) this.field = field;
    if (answer !== undefined) this.answer = answer;
  }
}

export type ApiClient = {
  /** Sends `body` as JSON (when given) and resolves with the parsed answer; a 4xx or 5xx rejects with MockApiError. */
  call<T>(method: string, path: string, body?: unknown): Promise<T>;
  close(): void;
};

/**
 * The object's calls go through the server's own HTTP API, so it can do exactly what the API can and
 * refuses exactly what the API refuses, with the same messages; one kept-alive connection serves them all.
 */
export function apiClient(base: string): ApiClient {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const call = <T>(method: string, path: string, body?: unknown): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const headers: Record<string, string | number> = { accept: 'application/json' };
      if (payload) Object.assign(headers, { 'content-type': 'application/json', 'content-length': payload.length });
      const req = request(`${base}${path}`, { method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: { message?: string; field?: string } & Record<string, unknown>;
          try {
            parsed = JSON.parse(text);
          } catch {
            return reject(new MockApiError(res.statusCode ?? 0, `${method} ${path} answered ${res.statusCode} with no JSON`));
          }
          const status = res.statusCode ?? 0;
          if (status >= 400) {
            return reject(new MockApiError(status, parsed.message ?? `${method} ${path} answered ${status}`, parsed.field, parsed));
          }
          resolve(parsed as T);
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  return { call, close: () => agent.destroy() };
}

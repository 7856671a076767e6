import type { Command } from 'commander';
import { errorMessage, notOurApi, request, withSlash, type ClientOptions } from '../common/client.js';
import { clientContext } from '../common/client-flags.js';
import { CliError, EXIT } from '../common/errors.js';

/**
 * A mock command's context: --server (or SNIPPETKIT_MOCK_SERVER, SNIPPETKIT_SERVER) names a mock
 * server or a joint one (`snippetkit serve`); one GET api/whoami tells them apart (docs/serve.md).
 */
export async function mockContext(command: Command): Promise<ReturnType<typeof clientContext>> {
  const context = clientContext(command, 'mock');
  return { ...context, client: await findMockApi(context.client) };
}

/**
 * The client with `server` moved to a joint server's mock API (`<server>/mocks`) and `endpoints` to its
 * endpoints, and the bins' key (`binKeys`) to be sent, when `<server>/api/whoami` says it is one; else as given. A mock server alone answers that
 * path 404; an unreachable server is left for the command's own request to report.
 */
export async function findMockApi(client: ClientOptions): Promise<ClientOptions> {
  const base = withSlash(client.server);
  let said: { server?: unknown; mocks?: unknown; endpoints?: unknown };
  try {
    const signal = AbortSignal.timeout(client.timeoutMs ?? 30_000);
    const res = await request(new URL('api/whoami', base), { method: 'GET', headers: { Accept: 'application/json' }, signal }, undefined);
    if (res.head.status !== 200) return client;
    said = JSON.parse(res.text) as typeof said;
  } catch {
    return client;
  }
  if (said?.server !== 'snippetkit serve' || typeof said.mocks !== 'string' || typeof said.endpoints !== 'string') return client;
  // Paths of the joint server, read under the URL given (which may be a proxy's prefix).
  const under = (path: string) => new URL(path.replace(/^\/+/, ''), base).href.replace(/\/+$/, '');
  // The bins' key goes to a joint server's mock API only, whose mocks may be private (serve --private-mocks).
  const { binKeys, ...rest } = client;
  return { ...rest, ...binKeys, server: under(said.mocks), endpoints: under(said.endpoints) };
}

/** The management API's route for one endpoint. */
export const endpointPath = (name: string) => `api/endpoint/${encodeURIComponent(name)}`;

/** Where an endpoint is served: its path (`users/:id`), or its name when it has none. */
export const servedUrl = (client: ClientOptions, path: string) =>
  `${client.endpoints ?? `${client.server}/endpoint`}/${encodeURI(path)}`;

export function notFound(client: ClientOptions, name: string): CliError {
  const hint = '`snippetkit mock list` shows them';
  return new CliError(`no endpoint named ${name} at ${client.server}; ${hint}`, EXIT.notFound);
}

/** Turns a non-2xx answer into a CliError worded for the user. */
export function check(client: ClientOptions, name: string, status: number, body: unknown): void {
  if (status === 404) throw notFound(client, name);
  // Other 409s (two endpoints on one path and method, a name that comes from a file) are worded by the server.
  if (status === 409 && fieldOf(body) === 'name' && errorMessage(body)?.endsWith('already exists')) {
    throw new CliError(`an endpoint named ${name} already exists; pass --force to replace it`, EXIT.refused);
  }
  if (status >= 400) {
    const message = errorMessage(body) ?? `status ${status}`;
    // in a record from --endpoint the field may be deep (responses[1].when.query): say which when the message does not
    const field = fieldOf(body);
    const where = typeof field === 'string' && !message.includes(field) ? ` (field ${field})` : '';
    throw new CliError(`the mock server refused it: ${message}${where}`, EXIT.refused);
  }
  if (typeof body !== 'object' || body === null || (body as { success?: unknown }).success !== true) {
    throw notOurApi(client, `it answered ${status} without {"success": true}`);
  }
}

function fieldOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? (body as { field?: unknown }).field : undefined;
}

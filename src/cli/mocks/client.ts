import { errorMessage, notOurApi, type ClientOptions } from '../common/client.js';
import { CliError, EXIT } from '../common/errors.js';

/** The management API's route for one endpoint. */
export const endpointPath = (name: string) => `api/endpoint/${encodeURIComponent(name)}`;

/** Where an endpoint is served: its path (`users/:id`), or its name when it has none. */
export const servedUrl = (client: ClientOptions, path: string) => `${client.server}/endpoint/${encodeURI(path)}`;

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

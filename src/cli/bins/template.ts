import { basename } from 'node:path';
import type { Command } from 'commander';
import type { SaveFlags } from './save.js';
import { callApi, errorMessage, type ClientOptions } from '../common/client.js';
import { clientContext } from '../common/client-flags.js';
import { CliError, EXIT } from '../common/errors.js';
import { readText } from '../common/read-input.js';
import { pickFiles } from './save.js';

/** `snippetkit template save [FILE]`: the files, picked as `save` picks them, become the server's template. */
export async function saveTemplate(file: string | undefined, flags: SaveFlags, command: Command): Promise<void> {
  const { client, out } = clientContext(command, 'bin');
  const picked = pickFiles(file, flags);
  const form: Record<string, string> = {};
  for (const [panel, path] of Object.entries(picked)) form[panel] = await readText(path);
  const template = await send(client, 'PUT', { form });
  out.note(`took ${Object.entries(picked).map(([panel, path]) => `${panel} from ${path === '-' ? 'standard input' : basename(path)}`).join(', ')}`);
  out.note('new bins start from it');
  out.result(newBinUrl(client), { url: newBinUrl(client), template });
}

/** `snippetkit template reset`: new bins start from the built-in starter again. */
export async function resetTemplate(command: Command): Promise<void> {
  const { client, out } = clientContext(command, 'bin');
  const template = await send(client, 'DELETE');
  out.note('new bins start from the built-in starter');
  out.result(newBinUrl(client), { url: newBinUrl(client), template });
}

/** Where a new bin starts from the template: the server's root. */
const newBinUrl = (client: ClientOptions) => `${client.server}/`;

async function send(client: ClientOptions, method: 'PUT' | 'DELETE', body?: { form: Record<string, string> }): Promise<unknown> {
  const { status, body: answer } = await callApi(client, method, 'api/template', body);
  if (status !== 200) {
    throw new CliError(`the bin server refused the template: ${errorMessage(answer) ?? `status ${status}`}`, EXIT.refused);
  }
  return answer;
}

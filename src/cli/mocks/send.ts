import type { Command } from 'commander';
import { callApi } from '../common/client.js';
import { check, endpointPath, mockContext } from './client.js';

/** `mock send NAME TEXT`: POST /api/endpoint/NAME/broadcast, the text to every open connection of a WebSocket or event-stream endpoint. */
export async function mockSend(name: string, text: string, command: Command): Promise<void> {
  const { client, out } = await mockContext(command);
  const { status, body } = await callApi(client, 'POST', `${endpointPath(name)}/broadcast`, { json: { data: text } });
  check(client, name, status, body);
  const { sent } = body as { sent: number };
  out.result(`sent to ${sent} open connection${sent === 1 ? '' : 's'} of ${name}`, body);
}

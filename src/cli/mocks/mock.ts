import type { Command } from 'commander';
import { callApi, notOurApi } from '../common/client.js';
import { check, endpointPath, servedUrl, mockContext } from './client.js';
import type { MockAddFlags } from './flags.js';
import { buildMockRequest } from './request.js';
import { formatDelay, formatRecord, type ShownRecord } from './show.js';
import { chalk, table } from '../common/output.js';
import { safeLine } from '../common/terminal-text.js';

type Listed = {
  name: string;
  path?: string;
  methods?: string[] | null;
  statusCode: number;
  delay: unknown;
  hits: number;
  updated?: string;
  url?: string;
};

export async function mockAdd(
  name: string,
  file: string | undefined,
  flags: MockAddFlags,
  command: Command,
): Promise<void> {
  const { client, out } = await mockContext(command);
  const request = await buildMockRequest(name, file, flags);
  const { status, body } = flags.force
    ? await callApi(client, 'PUT', endpointPath(name), { json: request })
    : await callApi(client, 'PUT', 'api/endpoint/add', { json: request });
  check(client, name, status, body);
  const saved = body as { statusCode: number; delay: unknown; path?: string };
  const url = servedUrl(client, saved.path ?? name);
  const done = status === 201 ? 'created' : 'replaced';
  out.note(`${done} ${name}: status ${saved.statusCode}, delay ${formatDelay(saved.delay)}`);
  out.result(safeLine(url), { url, created: status === 201, ...(body as object) });
}

export async function mockList(command: Command): Promise<void> {
  const { client, out } = await mockContext(command);
  const { status, body } = await callApi(client, 'GET', 'api/endpoints');
  check(client, '', status, body);
  const endpoints = (body as { endpoints?: Listed[] }).endpoints;
  if (!Array.isArray(endpoints)) throw notOurApi(client, 'its list has no endpoints');
  if (out.json) return out.result('', endpoints);
  if (endpoints.length === 0) {
    return out.result(chalk.dim('no endpoints yet: add one with `snippetkit mock add NAME FILE.json`'), []);
  }
  const rows = endpoints.map((e) => {
    const path = e.path ?? e.name;
    const methods = Array.isArray(e.methods) ? e.methods.join(',') : 'all';
    const url = e.url ?? servedUrl(client, path);
    const cells = [e.name, path, methods, e.statusCode, formatDelay(e.delay), e.hits, e.updated ?? '', url];
    return cells.map((cell) => safeLine(String(cell)));
  });
  out.result(table(['NAME', 'PATH', 'METHODS', 'STATUS', 'DELAY', 'HITS', 'UPDATED', 'URL'], rows), endpoints);
}

export async function mockGet(name: string, command: Command): Promise<void> {
  const { client, out } = await mockContext(command);
  const { status, body } = await callApi(client, 'GET', endpointPath(name));
  check(client, name, status, body);
  out.result(formatRecord(body as ShownRecord), body);
}

export async function mockRemove(name: string, command: Command): Promise<void> {
  const { client, out } = await mockContext(command);
  const { status, body } = await callApi(client, 'DELETE', endpointPath(name));
  check(client, name, status, body);
  out.result(`deleted ${name}`, body);
}

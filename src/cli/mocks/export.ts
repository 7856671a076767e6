import type { Command } from 'commander';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { callApi, notOurApi, type ClientOptions } from '../common/client.js';
import { CliError, EXIT, fileErrorReason } from '../common/errors.js';
import { check, endpointPath, mockContext } from './client.js';
import { formatOf, formatRecords, type FileFormat } from '../common/record-files.js';
import { ensureFolder } from '../common/out-folder.js';

export type MockExportFlags = { out?: string; format?: FileFormat };

/** What GET /api/endpoint/<name> adds to a record; an export holds what a PUT would take. */
export const READ_ONLY = new Set(['success', 'hits', 'lastCall', 'created', 'updated', 'url', 'source']);
// As the server checks names: a file name of one segment, never '.' or '..'.
const FILE_NAME = /^(?!\.\.?$)[A-Za-z0-9._~-]{1,128}$/;

/**
 * Every endpoint, sorted by name, each with the fields of the record answer in its order: to stdout,
 * one file (a list), or a folder with one `<name>.json` (or .yaml) per endpoint, its name the file's.
 */
export async function mockExport(flags: MockExportFlags, command: Command): Promise<void> {
  const { client, out } = await mockContext(command);
  const target = exportTarget(flags);
  const { records, fromFiles } = await fetchRecords(client);
  const leftOut = `left out ${fromFiles} endpoints served from files (--dir): they are files already`;
  if (target.kind === 'stdout') {
    process.stdout.write(formatRecords(records, target.format));
    if (fromFiles > 0) out.note(leftOut);
    return;
  }
  if (target.kind === 'file') {
    await write(target.path, formatRecords(records, target.format));
  } else {
    await ensureFolder(target.path);
    for (const { name, ...rest } of records) {
      await write(join(target.path, `${String(name)}.${target.format}`), formatRecords(rest, target.format));
    }
  }
  const where = target.kind === 'file' ? target.path : `${target.path} (one file each)`;
  out.note(`exported ${records.length} endpoints to ${where}`);
  if (fromFiles > 0) out.note(leftOut);
  out.result('', { exported: records.map((r) => r.name), to: target.path });
}

type Target = { kind: 'stdout' | 'file' | 'folder'; path: string; format: FileFormat };

/** --out with a .json, .yaml or .yml name is a file, anything else a folder. */
function exportTarget(flags: MockExportFlags): Target {
  if (flags.out === undefined) return { kind: 'stdout', path: '-', format: flags.format ?? 'json' };
  const byName = formatOf(flags.out);
  if (byName === undefined) return { kind: 'folder', path: flags.out, format: flags.format ?? 'json' };
  if (flags.format !== undefined && flags.format !== byName) {
    throw new CliError(`--out ${flags.out} is a ${byName} file name but --format is ${flags.format}`, EXIT.usage);
  }
  return { kind: 'file', path: flags.out, format: byName };
}

type Fetched = { records: Record<string, unknown>[]; fromFiles: number };

/**
 * The records of endpoints made through the API or the page. Endpoints served from watched files are
 * left out: their files are already the export, and the API refuses to import them under their names.
 */
async function fetchRecords(client: ClientOptions): Promise<Fetched> {
  const listed = await callApi(client, 'GET', 'api/endpoints');
  check(client, '', listed.status, listed.body);
  const endpoints = (listed.body as { endpoints?: { name?: unknown; source?: unknown }[] }).endpoints;
  if (!Array.isArray(endpoints)) throw notOurApi(client, 'its list has no endpoints');
  const own = endpoints.filter((e) => e.source === undefined);
  const names = own.map((e) => String(e.name)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const records: Record<string, unknown>[] = [];
  for (const name of names) {
    // the name becomes a file name: a server that sends another kind must not write elsewhere
    if (!FILE_NAME.test(name)) throw notOurApi(client, `it listed an endpoint named ${JSON.stringify(name)}`);
    const { status, body } = await callApi(client, 'GET', endpointPath(name));
    // deleted since the list was read: it is no longer there to export
    if (status === 404) continue;
    check(client, name, status, body);
    if ((body as { name?: unknown }).name !== name) {
      throw notOurApi(client, `it answered for ${name} with another name`);
    }
    records.push(Object.fromEntries(Object.entries(body as object).filter(([key]) => !READ_ONLY.has(key))));
  }
  return { records, fromFiles: endpoints.length - own.length };
}

async function write(path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text);
  } catch (err) {
    throw new CliError(`cannot write ${path}: ${fileErrorReason(err)}`, EXIT.file);
  }
}

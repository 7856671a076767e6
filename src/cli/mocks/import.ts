import type { Command } from 'commander';
import { readdir, stat } from 'node:fs/promises';
import { basename, extname, join, relative, sep } from 'node:path';
import { callApi, errorMessage } from '../common/client.js';
import { CliError, EXIT, fileErrorReason } from '../common/errors.js';
import { check, mockContext } from './client.js';
import { formatOf, parseRecordFile } from '../common/record-files.js';
import { isOpenapi } from '../../mocks/sources/openapi/is-openapi.js';
import { dbRecords, NOT_A_DB } from '../../mocks/sources/db-file-parser.js';
import { MAX_SOURCE_FILE_BYTES, readSourceFile } from '../../mocks/sources/read-source.js';
import { FileRefused, readGatedFile } from '../../gates/file-gate.js';
import { HarError, harRecords, isHar, type HarRecords } from '../../mocks/sources/har-records.js';

export type MockImportFlags = {
  replace?: boolean;
  openapi?: boolean;
  collections?: boolean;
  host?: string;
  recordCookies?: boolean;
  /** `"validate": true` on each record that says what it expects (an OpenAPI operation's). */
  validate?: boolean;
};

function isExpecting(record: unknown): record is Record<string, unknown> {
  return typeof record === 'object' && record !== null && 'expects' in record;
}

/** Where a record came from: the file, and its place in the file's list when the file holds one. */
type Source = { file: string; item?: number };
/** A file to send; `folder`: the folder given, which the file must not lead out of. */
type RecordFile = { file: string; name: string; folder?: string };
type Refused = { index?: number; name?: string; field?: string; message?: string };

/**
 * Loads FILE, or every record file under DIR, and sends them in one request: the server checks them
 * all before writing any. Every file is parsed first, so a syntax error sends nothing.
 */
export async function mockImport(path: string, flags: MockImportFlags, command: Command): Promise<void> {
  const { client, out } = await mockContext(command);
  const endpoints: unknown[] = [];
  const sources: Source[] = [];
  const problems: string[] = [];
  let hars = 0;
  for (const { file, name, folder } of await recordFiles(path)) {
    let value: unknown;
    try {
      const text = readGated(file, folder);
      value = parseRecordFile(text, file, formatOf(file) ?? 'json');
      if (flags.collections) value = fromDb(file, value);
      else if (flags.openapi || isOpenapi(value)) value = await fromOpenapi(file, text, out);
      else if (isHarFile(file) || isHar(value)) {
        value = fromHar(file, value, flags, out);
        hars++;
      }
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      problems.push(err.message);
      continue;
    }
    if (Array.isArray(value)) {
      for (const [item, record] of value.entries()) {
        endpoints.push(record);
        sources.push({ file, item });
      }
    } else {
      endpoints.push(withName(value, name));
      sources.push({ file });
    }
  }
  if (problems.length > 0) {
    throw new CliError(`${problems.length} files do not parse; nothing was sent`, EXIT.file, problems);
  }
  if (hars === 0 && (flags.host !== undefined || flags.recordCookies)) {
    throw new CliError(`--host and --record-cookies are for HAR files, and ${path} holds none`, EXIT.usage);
  }

  const replace = flags.replace === true;
  if (flags.validate) {
    for (const [i, record] of endpoints.entries()) {
      if (isExpecting(record)) endpoints[i] = { ...record, validate: true };
    }
  }
  const { status, body } = await callApi(client, 'POST', 'api/endpoints/import', { json: { endpoints, replace } });
  if (status === 400 || status === 409) throw refusedRecords(body, sources);
  if (status === 413) {
    const said = errorMessage(body);
    throw new CliError(`${path} is too large for the server's import limit${said ? ` (${said})` : ''}: import it in parts`, EXIT.refused);
  }
  check(client, '', status, body);
  const { created = [], replaced = [] } = body as { created?: string[]; replaced?: string[] };
  const counts = `${created.length} created, ${replaced.length} replaced`;
  out.note(`imported ${endpoints.length} endpoints from ${path}: ${counts}`);
  out.result('', body);
}

/** A json-server database's collections (docs/mock-api.md, "Collections"), each key an endpoint. */
function fromDb(file: string, value: unknown): unknown[] {
  const records = dbRecords(value);
  if (!records) throw new CliError(`${file}: ${NOT_A_DB}`, EXIT.file);
  return records;
}

/** An OpenAPI document's endpoint records (docs/mock-api.md); the parser is loaded only for one. */
async function fromOpenapi(file: string, text: string, out: { note(message: string): void }): Promise<unknown[]> {
  const { openapiRecords } = await import('../../mocks/sources/openapi/to-records.js');
  const { OpenapiError } = await import('../../mocks/sources/openapi/load-document.js');
  try {
    const { records, skipped } = await openapiRecords(file, text);
    for (const line of skipped) out.note(`${file}: skipped ${line}`);
    return records;
  } catch (err) {
    if (err instanceof OpenapiError) throw new CliError(err.message, EXIT.file);
    throw err;
  }
}

/**
 * A HAR's recordings (docs/mock-api.md, "From a HAR file"), made here rather than by the server: only
 * the records travel (not the file's requests, cookies and all, nor its skipped entries), and the
 * server's import route checks them as it checks any record, its --max-body bounding what is sent.
 */
function fromHar(file: string, value: unknown, flags: MockImportFlags, out: { note(message: string): void }) {
  const { host: given, recordCookies = false } = flags;
  let har: HarRecords;
  try {
    har = harRecords(value, { recordCookies, ...(given !== undefined && { host: given }) });
  } catch (err) {
    if (err instanceof HarError) throw new CliError(`${file} ${err.message}`, EXIT.file);
    throw err;
  }
  const { records, host, otherHosts, skipped, replaced } = har;
  if (otherHosts > 0) out.note(`${file}: skipped ${otherHosts} entries for other hosts than ${host} (--host)`);
  for (const [reason, count] of skipped) out.note(`${file}: skipped ${count} entries: ${reason}`);
  if (replaced > 0) out.note(`${file}: ${replaced} answers replaced by a different later one to the same request`);
  if (records.length === 0) {
    throw new CliError(`${file} holds no answer from ${host || 'any host'} to import`, EXIT.file);
  }
  return records;
}

/**
 * A file's text, through the Files gate: what is sent to a server (maybe another machine's) is a
 * regular file, capped, and under a folder given, never a link in it leading out. An OpenAPI
 * document's $refs are gated by its own folder (load-document.ts).
 */
function readGated(file: string, folder: string | undefined): string {
  try {
    if (folder === undefined) return readSourceFile(file);
    const gate = { root: folder, maxBytes: MAX_SOURCE_FILE_BYTES, rootName: folder };
    return readGatedFile(relative(folder, file), gate).toString('utf8');
  } catch (err) {
    if (err instanceof FileRefused) throw new CliError(`cannot read ${file}: ${err.reason}`, EXIT.file);
    throw err;
  }
}

/** A file's one record, named by the file's path when it has no name (in a list, each names itself). */
function withName(record: unknown, name: string): unknown {
  if (typeof record !== 'object' || record === null || Array.isArray(record) || 'name' in record) return record;
  return { name, ...record };
}

/** FILE, or every *.json, *.yaml and *.yml under DIR (recursively, sorted), with the name each implies. */
async function recordFiles(path: string): Promise<RecordFile[]> {
  let isFolder: boolean;
  try {
    isFolder = (await stat(path)).isDirectory();
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${fileErrorReason(err)}`, EXIT.file);
  }
  if (!isFolder) {
    if (!formatOf(path) && !isHarFile(path)) {
      throw new CliError(`${path} is not a .json, .yaml, .yml or .har file`, EXIT.usage);
    }
    return [{ file: path, name: basename(path, extname(path)) }];
  }
  let entries: string[];
  try {
    entries = await readdir(path, { recursive: true });
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${fileErrorReason(err)}`, EXIT.file);
  }
  const files = entries.filter((entry) => formatOf(entry)).sort();
  if (files.length === 0) throw new CliError(`${path} holds no .json, .yaml or .yml files`, EXIT.file);
  return files.map((entry) => {
    const name = relative('', entry.slice(0, -extname(entry).length)).split(sep).join('/');
    return { file: join(path, entry), name, folder: path };
  });
}

function isHarFile(path: string): boolean {
  return extname(path).toLowerCase() === '.har';
}

/** The server's 400 or 409, one line per record with the file it came from. */
function refusedRecords(body: unknown, sources: Source[]): CliError {
  const errors = ((body as { errors?: unknown }).errors ?? []) as Refused[];
  const lines: string[] = [];
  for (const error of Array.isArray(errors) ? errors : []) {
    const source = typeof error.index === 'number' ? sources[error.index] : undefined;
    const where = source ? source.file + (source.item === undefined ? '' : ` #${source.item}`) : '?';
    const name = error.name === undefined ? '' : ` (${error.name})`;
    const field = error.field === undefined || error.message?.includes(error.field) ? '' : ` [${error.field}]`;
    lines.push(`${where}${name}: ${error.message}${field}`);
  }
  const message = `the mock server refused the import: ${errorMessage(body) ?? 'no reason given'}`;
  return new CliError(message, EXIT.refused, lines);
}

import { existsSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { callApi, notOurApi, type ClientOptions } from '../common/client.js';
import { CliError, EXIT, fileErrorReason } from '../common/errors.js';
import { parseJsonFile, readText } from '../common/read-input.js';
import { check, endpointPath, findMockApi } from '../mocks/client.js';
import { READ_ONLY } from '../mocks/export.js';
import { MOCK_DEFAULTS } from '../../mocks/config/defaults.js';
import { parseMockInput } from '../../mocks/record/validate.js';
import { calledEndpoints } from '../../shared/endpoint-calls.js';

// `save --with-mocks` (docs/bin-api.md, "A sketch with its API"): which endpoint records go with a revision,
// read from the joint server's mock API or from the BIN.mocks.json that `pull --with-mocks` wrote.

/** An endpoint record in the form `snippetkit mock export` writes. */
export type MockRecord = Record<string, unknown> & { name: string };

/** The file beside BIN.html that `pull --with-mocks` writes and `save --with-mocks` reads. */
export const MOCKS_FILE_SUFFIX = '.mocks.json';
/** Larger than any save a bin server takes (max-request-size, 1 MB by default): refused unread. */
const MAX_MOCKS_FILE_BYTES = 4 * 1024 * 1024;
/** As the bin server checks them (src/bins/api/save-mocks.ts): with the mock server's default --max-delay. */
const VALIDATE = { maxDelay: MOCK_DEFAULTS.maxDelay };

/**
 * The client of the joint server's mock API (`<server>/mocks/api/…`), found as the mock commands find it
 * (GET /api/whoami), with the bins' key, which private mocks ask for. A bin server alone has no endpoints to send.
 */
export async function jointMockApi(bins: ClientOptions): Promise<ClientOptions> {
  const binKeys = { apiKey: bins.apiKey, ...(bins.localKey && { localKey: bins.localKey }) };
  const plain: ClientOptions = { server: bins.server, kind: 'mock', timeoutMs: bins.timeoutMs, binKeys };
  const mocks = await findMockApi(plain);
  if (mocks.endpoints !== undefined) return mocks;
  // Not a joint server, or not reachable: the bin server's own request says which (it throws when unreachable).
  await callApi(bins, 'GET', 'api/whoami');
  const hint = 'start it with `snippetkit serve`, which runs the bins and the mocks on one port, or leave out --with-mocks';
  throw new CliError(`--with-mocks needs the bins and their endpoints on one server, and ${bins.server} has no mocks: ${hint}`, EXIT.usage);
}

/** `DIR/BIN.mocks.json` when the file saved (`DIR/BIN.html`, or --html's) has one beside it. */
export function mocksFileBeside(file: string | undefined): string | undefined {
  if (!file || file === '-') return undefined;
  const beside = file.slice(0, file.length - extname(file).length) + MOCKS_FILE_SUFFIX;
  return existsSync(beside) ? beside : undefined;
}

/** The records of a BIN.mocks.json (`mock export`'s list), each checked as the servers will check it. */
export async function readMocksFile(path: string): Promise<MockRecord[]> {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${fileErrorReason(err)}`, EXIT.file);
  }
  if (size > MAX_MOCKS_FILE_BYTES) {
    throw new CliError(`${path} is over ${MAX_MOCKS_FILE_BYTES / 1024 / 1024} MB: more than a save can carry`, EXIT.file);
  }
  const value = parseJsonFile(await readText(path), path);
  if (!Array.isArray(value)) {
    throw new CliError(`${path} must hold a list of endpoint records, as \`snippetkit pull --with-mocks\` writes`, EXIT.file);
  }
  const problems: string[] = [];
  const names = new Set<string>();
  for (const [i, record] of value.entries()) {
    const where = `${path} #${i}`;
    try {
      const { name } = parseMockInput(record, VALIDATE);
      if (names.has(name)) problems.push(`${where} (${name}): the name is given twice`);
      names.add(name);
    } catch (err) {
      if (!isRefusal(err)) throw err;
      const named = typeof (record as { name?: unknown })?.name === 'string' ? ` (${(record as { name: string }).name})` : '';
      problems.push(`${where}${named}: ${err.message}`);
    }
  }
  if (problems.length > 0) {
    throw new CliError(`${problems.length} records in ${path} are invalid; nothing was saved`, EXIT.file, problems);
  }
  return (value as MockRecord[]).map(exported);
}

/** The record validation's refusal (a 400 naming the field), as opposed to a fault of ours. */
export function isRefusal(err: unknown): err is Error {
  return err instanceof Error && (err as { status?: unknown }).status === 400;
}

/** A record as `mock export` writes it: without what a record answer adds (hits, times, url, source). */
export function exported(record: Record<string, unknown>): MockRecord {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !READ_ONLY.has(key))) as MockRecord;
}

export type CalledMocks = { records: MockRecord[]; unanswered: string[] };

/**
 * The records of the endpoints the code calls (`/endpoint/…` in its html and javascript, shared/endpoint-calls.ts),
 * from the joint server's endpoint list and then each endpoint's own record.
 */
export async function calledMocks(mocks: ClientOptions, texts: string[]): Promise<CalledMocks> {
  const listed = await callApi(mocks, 'GET', 'api/endpoints');
  check(mocks, '', listed.status, listed.body);
  const endpoints = (listed.body as { endpoints?: unknown }).endpoints;
  if (!Array.isArray(endpoints)) throw notOurApi(mocks, 'its list has no endpoints');
  const routed = endpoints.flatMap((e: { name?: unknown; path?: unknown }) =>
    typeof e?.name === 'string' && typeof e.path === 'string' ? [{ name: e.name, path: e.path }] : [],
  );
  const { names, unanswered } = calledEndpoints(texts, routed);
  const records: MockRecord[] = [];
  for (const name of names) {
    const { status, body } = await callApi(mocks, 'GET', endpointPath(name));
    if (status === 404) continue; // deleted since the list was read: not there to take
    check(mocks, name, status, body);
    if ((body as { name?: unknown }).name !== name) throw notOurApi(mocks, `it answered for ${name} with another name`);
    records.push(exported(body as Record<string, unknown>));
  }
  // What the bin server will refuse, said here with the endpoint's name: a nested name (an endpoint from a
  // --dir file in a subfolder), or a delay past the default --max-delay.
  const problems = records.flatMap((record) => {
    try {
      parseMockInput(record, VALIDATE);
      return [];
    } catch (err) {
      if (!isRefusal(err)) throw err;
      return [`${record.name}: ${err.message}`];
    }
  });
  if (problems.length > 0) {
    const message = `${problems.length} of the endpoints the code calls cannot be kept with a bin; nothing was saved`;
    throw new CliError(message, EXIT.refused, problems);
  }
  return { records, unanswered };
}

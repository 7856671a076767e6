import { isDeepStrictEqual } from 'node:util';
import { callApi, errorMessage, type ClientOptions } from '../common/client.js';
import { CliError, EXIT } from '../common/errors.js';
import { check, endpointPath } from '../mocks/client.js';
import { parseMockInput } from '../../mocks/record/validate.js';
import type { Output } from '../common/output.js';
import { calledMocks, isRefusal, jointMockApi, mocksFileBeside, readMocksFile, type MockRecord } from './with-mocks.js';

// Restoring a sketch's API on a server (docs/bin-api.md, "A sketch with its API"): each record of a
// BIN.mocks.json is there already, identical; or missing, and then imported; or there in another shape,
// and then reported, never replaced.

/** Every check but the record's own limits: a server's endpoints are compared, not judged. */
const COMPARE = { maxDelay: Number.MAX_SAFE_INTEGER };

type Refused = { index?: number; name?: string; message?: string };

/**
 * Makes the endpoints of `records` exist on the mock server as they are: the ones missing are imported
 * in one request (all or nothing); one of the same name and another record, or a missing one whose
 * route another endpoint takes, is a CliError naming it, and then nothing is changed. Returns the names
 * it created, for `removeEndpoints` should the save that follows fail.
 */
export async function placeMocks(mocks: ClientOptions, records: MockRecord[], server: string): Promise<string[]> {
  const missing: MockRecord[] = [];
  const clashes: string[] = [];
  for (const record of records) {
    const { status, body } = await callApi(mocks, 'GET', endpointPath(record.name));
    if (status === 404) {
      missing.push(record);
      continue;
    }
    check(mocks, record.name, status, body);
    if (!sameRecord(record, body as Record<string, unknown>)) {
      const from = (body as { source?: unknown }).source;
      const where = typeof from === 'string' ? ` (served from ${from})` : '';
      clashes.push(`${record.name}: the server's endpoint${where} has another record; \`snippetkit mock get ${record.name}\` shows it`);
    }
  }
  if (clashes.length > 0) {
    const which = clashes.length === 1 ? 'an endpoint' : `${clashes.length} endpoints`;
    const message = `${which} on ${server} ha${clashes.length === 1 ? 's' : 've'} the name of one of the bin's mocks but another shape; nothing was saved or changed`;
    throw new CliError(message, EXIT.refused, clashes);
  }
  if (missing.length === 0) return [];
  const { status, body } = await callApi(mocks, 'POST', 'api/endpoints/import', { json: { endpoints: missing, replace: false } });
  if (status === 400 || status === 409 || status === 413 || status === 507) throw refusedImport(server, status, body, missing);
  check(mocks, '', status, body);
  const created = (body as { created?: unknown }).created;
  return Array.isArray(created) ? created.filter((name): name is string => typeof name === 'string') : [];
}

/** Whether the server's record answer is `record`, as the server reads both (defaults, key order). */
function sameRecord(record: MockRecord, answer: Record<string, unknown>): boolean {
  try {
    const { source: _source, ...held } = answer;
    return isDeepStrictEqual({ ...parseMockInput(record, COMPARE) }, { ...parseMockInput(held, COMPARE) });
  } catch (err) {
    if (isRefusal(err)) return false;
    throw err;
  }
}

/** The import's refusal, one line per record it names. */
function refusedImport(server: string, status: number, body: unknown, sent: MockRecord[]): CliError {
  const errors = (body as { errors?: unknown })?.errors;
  const lines = (Array.isArray(errors) ? (errors as Refused[]) : []).map((error) => {
    const name = error.name ?? (typeof error.index === 'number' ? sent[error.index]?.name : undefined) ?? '?';
    return `${name}: ${error.message ?? 'refused'}`;
  });
  const why = status === 413 ? "they are larger than the mock server's --max-body" : (errorMessage(body) ?? `status ${status}`);
  return new CliError(`the mocks on ${server} refused the bin's mocks (${why}); nothing was saved or changed`, EXIT.refused, lines);
}

/** Takes back the endpoints a save created before the bin server refused it; says which could not go. */
export async function removeEndpoints(mocks: ClientOptions, names: string[]): Promise<string[]> {
  const left: string[] = [];
  for (const name of names) {
    try {
      const { status } = await callApi(mocks, 'DELETE', endpointPath(name));
      if (status !== 200 && status !== 404) left.push(name);
    } catch {
      left.push(name);
    }
  }
  return left;
}

/** The mocks a save sends, and how to take back what placing them created should the save fail. */
export type SaveMocks = {
  records: MockRecord[];
  /** The BIN.mocks.json they came from, if any. */
  file?: string;
  /** The endpoints created on the server for them. */
  created: string[];
  undo(err: unknown): Promise<unknown>;
};

/**
 * What `save --with-mocks` sends with the panels: the records of BIN.mocks.json beside the file saved,
 * placed on the server first (placeMocks); else the records of the endpoints the code calls, which are
 * there already. A save that would carry no mocks is refused: the user asked for them.
 */
export async function mocksForSave(bins: ClientOptions, file: string | undefined, texts: string[], out: Output): Promise<SaveMocks> {
  const mocks = await jointMockApi(bins);
  const fromFile = mocksFileBeside(file);
  let records: MockRecord[];
  let created: string[] = [];
  if (fromFile) {
    records = await readMocksFile(fromFile);
    created = await placeMocks(mocks, records, bins.server);
  } else {
    const called = await calledMocks(mocks, texts);
    records = called.records;
    for (const call of called.unanswered) out.note(`the code calls ${call}, which no endpoint on ${bins.server} answers`);
    if (records.length === 0) {
      const hint = 'write its path as `/endpoint/…` in the html or javascript, or leave out --with-mocks';
      throw new CliError(`the code calls no endpoint of ${bins.server}, so there are no mocks to save; ${hint}`, EXIT.notFound);
    }
  }
  const undo = async (err: unknown) => {
    if (created.length === 0 || !(err instanceof CliError)) return err;
    const left = await removeEndpoints(mocks, created);
    const said = left.length === 0 ? `the endpoints it created (${created.join(', ')}) are removed again` : `remove ${left.join(', ')} by hand`;
    return new CliError(`${err.message}; ${said}`, err.exitCode, err.details);
  };
  return { records, created, undo, ...(fromFile && { file: fromFile }) };
}

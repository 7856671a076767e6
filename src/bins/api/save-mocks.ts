import { HttpError } from '../../http/errors.js';
import { isJsonObject } from '../../http/json-body.js';
import { jsonField } from '../../http/json-object.js';
import { MOCK_DEFAULTS } from '../../mocks/config/defaults.js';
import { parseMockInput } from '../../mocks/record/validate.js';
import type { Settings } from '../engines/records.js';
import { jsonDepth } from './json-depth.js';

/**
 * A revision's mocks (docs/bin-api.md, "A sketch with its API"): the endpoint records its code calls, in
 * the form `snippetkit mock export` writes and `POST /mocks/api/endpoints/import` takes. They are kept in the
 * revision's settings under MOCKS_SETTING, so no engine needed a new column, and the API shows them as the
 * revision's own `mocks` key beside `settings`, never inside it.
 */
export type BinMock = Record<string, unknown>;

/** The settings key a revision keeps its mocks under; a save's own settings may not name it. */
export const MOCKS_SETTING = 'mocks';
/** Records one revision keeps: a sketch calls a few endpoints, not a server's worth. */
export const MAX_BIN_MOCKS = 100;
/** Nesting of a record's data: deeper would strain the stack of JSON.stringify wherever the revision goes. */
export const MAX_MOCK_DEPTH = 64;
/** What a record answer adds to a record (docs/mock-api.md): not the endpoint's, so not kept. */
const READ_ONLY = ['success', 'hits', 'lastCall', 'created', 'updated', 'url', 'source'];
/** A bin server does not know the mock server's --max-delay: the records are checked with the default. */
const VALIDATE = { maxDelay: MOCK_DEFAULTS.maxDelay };

/**
 * A save's `mocks` field: a JSON list of endpoint records (a string in a form, a list or a string in a JSON
 * body). Each is checked by the mock server's own record validation, names are unique; an empty list or an
 * absent field is no mocks. Throws a 400 naming the record and its field.
 */
export function readMocks(value: unknown): BinMock[] | undefined {
  const parsed = jsonField(value, 'mocks');
  if (parsed === undefined) return undefined;
  if (!Array.isArray(parsed)) throw new HttpError(400, 'mocks must be a list of endpoint records', 'mocks');
  if (parsed.length > MAX_BIN_MOCKS) {
    throw new HttpError(400, `mocks holds ${parsed.length} records; a revision keeps at most ${MAX_BIN_MOCKS}`, 'mocks');
  }
  if (parsed.length === 0) return undefined;
  const names = new Map<string, number>();
  return parsed.map((record: unknown, i) => {
    const at = `mocks[${i}]`;
    if (!isJsonObject(record)) throw new HttpError(400, `${at} must be an endpoint record (a JSON object)`, at);
    const named = typeof record.name === 'string' ? `${at} (${record.name})` : at;
    if (jsonDepth(record, MAX_MOCK_DEPTH) > MAX_MOCK_DEPTH) {
      throw new HttpError(400, `${named} is nested more than ${MAX_MOCK_DEPTH} levels deep`, at);
    }
    let name: string;
    try {
      name = parseMockInput(record, VALIDATE).name;
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      throw new HttpError(400, `${named}: ${err.message}`, err.field ? `${at}.${err.field}` : at);
    }
    const first = names.get(name);
    if (first !== undefined) throw new HttpError(400, `${named}: the name is also mocks[${first}]'s`, `${at}.name`);
    names.set(name, i);
    return Object.fromEntries(Object.entries(record).filter(([key]) => !READ_ONLY.includes(key)));
  });
}

/** A revision's mocks, when it was saved with them. */
export function mocksOf(settings: Settings): BinMock[] | undefined {
  const mocks = settings[MOCKS_SETTING];
  return Array.isArray(mocks) ? (mocks as BinMock[]) : undefined;
}

/** Settings without the mocks: what the API answers as `settings`, and what a next revision inherits. */
export function withoutMocks(settings: Settings): Settings {
  if (!Object.hasOwn(settings, MOCKS_SETTING)) return settings;
  const { [MOCKS_SETTING]: _mocks, ...rest } = settings;
  return rest;
}

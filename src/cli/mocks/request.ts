import { CliError, EXIT } from '../common/errors.js';
import type { MockAddFlags } from './flags.js';
import { parseJsonFile, readText } from '../common/read-input.js';

type Fields = Record<string, unknown>;

/** What GET /api/endpoint/<name> adds to a record: read-only, so a saved `mock get --json` can be sent back. */
const READ_ONLY = ['success', 'hits', 'lastCall', 'created', 'updated', 'url'];

/** `Name: value` → [name, value]; anything else is a usage error. */
export function parseHeader(header: string): [string, string] {
  const colon = header.indexOf(':');
  const name = header.slice(0, colon).trim();
  if (colon <= 0 || name === '') throw new CliError(`--header '${header}' is not 'Name: value'`, EXIT.usage);
  return [name, header.slice(colon + 1).trim()];
}

/**
 * The endpoint record `mock add` sends: FILE's JSON as `data`, or the text of --body-file as `body`,
 * or the whole record from --endpoint; the flags then set their fields over it. Conflicting inputs
 * are usage errors found before any file is read or request sent.
 */
export async function buildMockRequest(name: string, file: string | undefined, flags: MockAddFlags): Promise<Fields> {
  checkSources(file, flags);
  const headers = flags.header.map(parseHeader);
  let record: Fields;
  if (flags.endpoint !== undefined) record = await readEndpointFile(name, flags.endpoint);
  else record = file === undefined ? {} : { data: parseJsonFile(await readText(file), file) };
  if (flags.bodyFile !== undefined) {
    delete record.data;
    record.body = await readText(flags.bodyFile);
  }
  // a leading slash is how people write paths; the record's path has none
  if (flags.path !== undefined) record.path = flags.path.replace(/^\/+/, '');
  if (flags.method.length > 0) record.methods = flags.method;
  if (flags.template) record.template = true;
  if (flags.status !== undefined) record.statusCode = flags.status;
  if (flags.delay !== undefined) record.delay = flags.delay;
  if (headers.length > 0) record.headers = mergeHeaders(record.headers, headers);
  if (flags.fault !== undefined) record.fault = flags.fault;
  if (flags.faultRate !== undefined) record.faultRate = flags.faultRate;
  const { name: _inFile, ...rest } = record;
  return { name, ...rest };
}

function checkSources(file: string | undefined, flags: MockAddFlags): void {
  const usage = (message: string) => new CliError(message, EXIT.usage);
  if (file !== undefined && flags.endpoint !== undefined) {
    throw usage('give FILE (the data) or --endpoint FILE (a whole endpoint record), not both');
  }
  if (file !== undefined && flags.bodyFile !== undefined) {
    throw usage('give FILE (JSON data) or --body-file FILE (a text body), not both');
  }
  if (file === undefined && flags.endpoint === undefined && flags.bodyFile === undefined) {
    throw usage('give FILE.json with the data to answer, --body-file FILE or --endpoint FILE.json');
  }
  if (flags.endpoint === '-' && flags.bodyFile === '-') {
    throw usage('--endpoint and --body-file cannot both read standard input (-)');
  }
  // with --endpoint the fault may come from the file; the server checks that case
  if (flags.faultRate !== undefined && flags.fault === undefined && flags.endpoint === undefined) {
    throw usage('--fault-rate needs --fault (reset, empty, malformed or hang)');
  }
}

/** A whole record from a file, less a GET answer's read-only fields; a `name` in it must agree with NAME. */
async function readEndpointFile(name: string, path: string): Promise<Fields> {
  const record = parseJsonFile(await readText(path), path);
  const shown = path === '-' ? 'standard input' : path;
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new CliError(`${shown} must hold one JSON object: an endpoint record such as {"data": …}`, EXIT.file);
  }
  const inFile = (record as Fields).name;
  if (inFile !== undefined && inFile !== name) {
    const quoted = JSON.stringify(inFile);
    const fix = 'make them agree or drop its "name"';
    throw new CliError(`${shown} names the endpoint ${quoted}, not ${name}: ${fix}`, EXIT.usage);
  }
  return Object.fromEntries(Object.entries(record).filter(([key]) => !READ_ONLY.includes(key)));
}

/** Flag headers over the file's (a name in any case replaced); file headers that are not an object are dropped. */
function mergeHeaders(fromFile: unknown, given: [string, string][]): Record<string, unknown> {
  const isObject = typeof fromFile === 'object' && fromFile !== null && !Array.isArray(fromFile);
  const replaced = new Set(given.map(([header]) => header.toLowerCase()));
  const kept = isObject ? Object.entries(fromFile).filter(([key]) => !replaced.has(key.toLowerCase())) : [];
  // fromEntries defines keys, so a "__proto__" header stays a key for the server to refuse
  return Object.fromEntries([...kept, ...given]);
}

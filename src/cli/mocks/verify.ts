import type { Command } from 'commander';
import { callApi, errorMessage } from '../common/client.js';
import { CliError, EXIT } from '../common/errors.js';
import { parseJsonFile, readText } from '../common/read-input.js';
import { verificationReport, type FailedVerification } from '../../mocks/verify/report.js';
import { check, mockContext } from './client.js';
import { parseHeader } from './request.js';

export type MockVerifyFlags = {
  count?: number;
  atLeast?: number;
  atMost?: number;
  method?: string;
  path?: string;
  query: string[];
  header: string[];
  bodyContains?: string;
  bodySchema?: string;
};

/**
 * `mock verify [NAME]`: POST /api/verify with the flags as the pattern. Exit 0 when the count holds;
 * exit 1 with the server's message and the near misses when it does not, for shell and CI scripts.
 */
export async function mockVerify(name: string | undefined, flags: MockVerifyFlags, command: Command): Promise<void> {
  const { client, out } = await mockContext(command);
  const query = Object.fromEntries(flags.query.map(parseQueryPair));
  const headers = Object.fromEntries(flags.header.map(parseHeader));
  const { count, atLeast, atMost, method, path, bodyContains } = flags;
  // The user's own file, named on their command line, as `mock add FILE` reads one: the server bounds the schema.
  const bodySchema = flags.bodySchema === undefined ? undefined : parseJsonFile(await readText(flags.bodySchema), flags.bodySchema);
  const json = {
    name,
    method,
    path,
    ...(flags.query.length > 0 && { query }),
    ...(flags.header.length > 0 && { headers }),
    bodyContains,
    bodySchema,
    count,
    atLeast,
    atMost,
  };
  const { status, body } = await callApi(client, 'POST', 'api/verify', { json });
  if (status === 417) {
    if (out.json) out.result('', body);
    // Each line printed escaped by main: a logged body cannot forge lines of the report.
    const [message, ...details] = verificationReport(body as FailedVerification).split('\n');
    throw new CliError(message!, EXIT.failure, details);
  }
  check(client, name ?? '', status, body);
  const matched = (body as { matched: number }).matched;
  const incomplete = (body as { incomplete?: boolean }).incomplete ? ' (a log in scope is full: older requests may be gone)' : '';
  out.result(`verified: ${matched} matching ${matched === 1 ? 'request' : 'requests'}${incomplete}`, body);
}

/** `mock reset`: POST /api/reset, one call back to a clean state. */
export async function mockReset(command: Command): Promise<void> {
  const { client, out } = await mockContext(command);
  const { status, body } = await callApi(client, 'POST', 'api/reset');
  if (status >= 400) throw new CliError(errorMessage(body) ?? `status ${status}`, EXIT.badServer);
  const { deleted, kept } = body as { deleted: number; kept: number };
  out.result(`reset: ${deleted} deleted, ${kept} from files kept with fresh counters and logs`, body);
}

/** `KEY=VALUE` of --query. */
function parseQueryPair(pair: string): [string, string] {
  const at = pair.indexOf('=');
  if (at <= 0) throw new CliError(`--query takes KEY=VALUE, got ${JSON.stringify(pair)}`, EXIT.usage);
  return [pair.slice(0, at), pair.slice(at + 1)];
}

import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { clientError, HttpError } from '../http/errors.js';
import { isJsonObject, readJsonBody } from '../http/json-body.js';
import type { Logger } from '../server/logger.js';
import type { MockInput } from './record/record.js';
import { RouteTable } from './store/route-table.js';
import { type MockStore } from './store/store.js';
import { patternOf } from './store/endpoint.js';
import { conflictError } from './store/refusals.js';
import { parseMockInput, type ValidateOptions } from './record/validate.js';
import { sendJson } from '../http/json-answer.js';

export type ImportOptions = { store: MockStore; validate: ValidateOptions; maxBody: number; logger: Logger };

/** One refused record: where it is in the list, its name when it has one, and why. */
type Problem = { index: number; name?: string; field?: string; message: string };

/**
 * POST /api/endpoints/import: all or nothing as far as checks go. Every record is validated, room
 * is counted, and every name and route conflict is looked for before the first write; the
 * store then writes one record after another, so a write failing midway (the disk, or a write from
 * another client in between) leaves the earlier ones written, and the answer lists them.
 */
export function addImportRoute(router: Router, options: ImportOptions): void {
  const { store } = options;
  router.post('/endpoints/import', async (ctx) => {
    // Declared JSON, unlike the older writes: a cross-origin POST then needs a preflight, which --no-cors
    // refuses, where a text/plain one would be sent without asking (and a form cannot send this type).
    const body = await readJsonBody(ctx, { limit: options.maxBody, requireJsonType: true });
    const { endpoints, replace } = readImportBody(body);
    const inputs = validateAll(ctx, endpoints, options.validate);
    if (!inputs) return;
    const added = inputs.filter((input) => !store.get(input.name)).length;
    const held = store.list().length;
    if (held + added > store.maxEndpoints) {
      const room = Math.max(0, store.maxEndpoints - held);
      const message =
        `no room for ${added} new endpoints: the server holds ${held} of at most ${store.maxEndpoints} ` +
        `(--max-endpoints), room for ${room}; nothing was imported`;
      throw new HttpError(507, message);
    }
    // After the room check, which bounds how many routes are compared with each other.
    if (!checkConflicts(ctx, store, inputs, replace)) return;
    const created: string[] = [];
    const replaced: string[] = [];
    for (const input of inputs) {
      try {
        const result = replace ? await store.put(input) : await store.add(input);
        if (!replace && !result.created) throw new HttpError(409, `an endpoint named '${input.name}' was just made`);
        (result.created ? created : replaced).push(input.name);
      } catch (err) {
        stoppedMidway(ctx, options.logger, err, input.name, [...created, ...replaced]);
        return;
      }
    }
    sendJson(ctx, { success: true, created, replaced });
  });
}

function readImportBody(body: unknown): { endpoints: unknown[]; replace: boolean } {
  if (body === undefined) throw new HttpError(400, 'the request has no body; send {"endpoints": [...]}');
  if (!isJsonObject(body)) throw new HttpError(400, 'request body must be a JSON object');
  for (const key of Object.keys(body)) {
    if (key !== 'endpoints' && key !== 'replace') throw new HttpError(400, `unknown field '${key}'`, key);
  }
  if (!Array.isArray(body.endpoints)) throw new HttpError(400, 'endpoints must be a list of records', 'endpoints');
  if (body.replace !== undefined && typeof body.replace !== 'boolean') {
    throw new HttpError(400, 'replace must be true or false', 'replace');
  }
  return { endpoints: body.endpoints, replace: body.replace === true };
}

/** Every record parsed, or a 400 answered listing every bad one (and every name given twice). */
function validateAll(ctx: Context, records: unknown[], validate: ValidateOptions): MockInput[] | undefined {
  const problems: Problem[] = [];
  const inputs: MockInput[] = [];
  const seen = new Map<string, number>();
  for (const [index, record] of records.entries()) {
    if (!isJsonObject(record)) {
      problems.push({ index, message: 'a record must be a JSON object' });
      continue;
    }
    const named = typeof record.name === 'string' ? { name: record.name } : {};
    try {
      const input = parseMockInput(record, validate);
      const first = seen.get(input.name);
      if (first !== undefined) {
        problems.push({ index, ...named, field: 'name', message: `name '${input.name}' is also at index ${first}` });
      }
      seen.set(input.name, first ?? index);
      inputs.push(input);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      problems.push({ index, ...named, ...(err.field && { field: err.field }), message: err.message });
    }
  }
  if (problems.length === 0) return inputs;
  refuse(ctx, 400, `${problems.length} of ${records.length} records are invalid`, problems);
  return undefined;
}

/**
 * Names that exist (without `replace`) and routes that overlap, among the records or with endpoints
 * they leave in place: a 409 listing all of them. False when it answered.
 */
function checkConflicts(ctx: Context, store: MockStore, inputs: MockInput[], replace: boolean): boolean {
  const problems: Problem[] = [];
  const incoming = new Set(inputs.map((input) => input.name));
  // The routes as they will be: the endpoints the import leaves alone, then the records one by one.
  const table = new RouteTable<undefined>();
  for (const { record } of store.list()) {
    if (!incoming.has(record.name)) table.set(record.name, patternOf(record), record.methods, undefined);
  }
  for (const [index, input] of inputs.entries()) {
    const { name } = input;
    const held = store.get(name);
    if (held?.source) {
      problems.push({ index, name, field: 'name', message: `endpoint '${name}' comes from ${held.source}` });
    } else if (!replace && held) {
      problems.push({ index, name, field: 'name', message: `an endpoint named '${name}' already exists` });
    }
    const pattern = patternOf(input);
    const other = table.conflict(name, pattern, input.methods);
    if (other !== undefined) {
      problems.push({ index, name, field: 'path', message: conflictError(pattern, other).message });
    }
    table.set(name, pattern, input.methods, undefined);
  }
  if (problems.length === 0) return true;
  const hint = replace ? '' : ' (replace: true replaces endpoints of the same name)';
  refuse(ctx, 409, `${problems.length} conflicts; nothing was imported${hint}`, problems);
  return false;
}

function refuse(ctx: Context, status: number, message: string, errors: Problem[]): void {
  ctx.status = status;
  sendJson(ctx, { success: false, message, errors });
}

/** A write failed after the checks: say which, and which were written before it (they stay). */
function stoppedMidway(ctx: Context, logger: Logger, err: unknown, name: string, written: string[]): void {
  let status = 500;
  let why = 'the data file failed';
  const ours = clientError(err);
  if (ours) [status, why] = [ours.status, ours.message];
  else logger.error(`POST ${ctx.path}: ${(err as Error).stack ?? String(err)}`);
  const kept =
    written.length === 0 ? 'nothing was written' : `the ${written.length} written before it (in "written") are kept`;
  ctx.status = status;
  sendJson(ctx, { success: false, message: `the import stopped at '${name}': ${why}; ${kept}`, written });
}

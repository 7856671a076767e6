import type { Router } from '@koa/router';
import { CpuBudgetExceeded, startCpuBudget } from '../gates/cpu-budget.js';
import { HttpError } from '../http/errors.js';
import { isJsonObject, readJsonBody } from '../http/json-body.js';
import { sendJson } from '../http/json-answer.js';
import type { MockStore } from './store/store.js';
import { journal, matchAll } from './verify/journal.js';
import { describeExpected, meets, parseVerification, patternFromQuery, type RequestPattern } from './verify/pattern.js';

/** Requests an answer lists by default, and at most (`limit`); counts are always whole. */
const LISTED = 100;
const MAX_LISTED = 1000;

/**
 * POST /api/verify and GET /api/requests (docs/testing-with-mocks.md): a test asks what the mocks were
 * sent, in any language. A verification that fails is a 417 with the closest requests and, field by
 * field, what differed (as WireMock's near misses). Matching the journal, a `bodySchema` included,
 * runs under the CPU gate's budget of `maxRequestCpu` ms: past it a 503, never a partial answer.
 */
export function addVerifyRoutes(router: Router, store: MockStore, maxBody: number, maxRequestCpu: number): void {
  router.post('/verify', async (ctx) => {
    const body = (await readJsonBody(ctx, { limit: maxBody })) ?? {};
    if (!isJsonObject(body)) throw new HttpError(400, 'the body must be a JSON object: a request pattern and a count');
    const { pattern, expected } = parseVerification(body);
    known(store, pattern);
    // ajv loads with the first schema, not with the server.
    const schemas = pattern.bodySchema && (await import('./verify/body-schema.js'));
    const { matched, nearMisses, incomplete } = budgeted(() => {
      const budget = startCpuBudget(maxRequestCpu);
      const schema = schemas && schemas.compileBodySchema(pattern.bodySchema!, budget);
      const { entries, incomplete } = journal(store, pattern);
      return { ...matchAll(entries, pattern, budget, schema), incomplete };
    });
    const requests = matched.slice(0, LISTED);
    const note = incomplete ? { incomplete: true } : {};
    if (meets(expected, matched.length)) {
      return sendJson(ctx, { success: true, matched: matched.length, requests, ...note });
    }
    const message = `expected ${describeExpected(expected)} ${plural(expected)} matching ${JSON.stringify(pattern)}, got ${matched.length}`;
    ctx.status = 417;
    sendJson(ctx, { success: false, message, matched: matched.length, expected: { ...pattern, ...expected }, requests, nearMisses, ...note });
  });

  router.get('/requests', (ctx) => {
    const pattern = patternFromQuery(ctx.query);
    const limit = listLimit(ctx.query.limit);
    known(store, pattern);
    const { matched, incomplete } = budgeted(() => {
      const budget = startCpuBudget(maxRequestCpu);
      const { entries, incomplete } = journal(store, pattern);
      return { ...matchAll(entries, pattern, budget), incomplete };
    });
    sendJson(ctx, { success: true, count: matched.length, requests: matched.slice(0, limit), ...(incomplete && { incomplete: true }) });
  });
}

/** The CPU gate's refusal as the API's own 503 (the error middleware answers a bare 503 as a 500). */
function budgeted<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof CpuBudgetExceeded) throw new HttpError(err.status, err.message);
    throw err;
  }
}

/** A pattern naming an endpoint that does not exist is a 404, not a quiet zero. */
function known(store: MockStore, pattern: RequestPattern): void {
  if (pattern.name !== undefined && !store.get(pattern.name)) throw new HttpError(404, `no endpoint named '${pattern.name}'`, 'name');
}

function listLimit(raw: string | string[] | undefined): number {
  if (raw === undefined) return LISTED;
  const limit = Number(raw);
  if (typeof raw !== 'string' || !Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LISTED) {
    throw new HttpError(400, `limit must be a whole number from 1 to ${MAX_LISTED}`, 'limit');
  }
  return limit;
}

function plural({ count, atLeast, atMost }: { count?: number; atLeast?: number; atMost?: number }): string {
  return (count ?? atMost ?? atLeast ?? 1) === 1 ? 'request' : 'requests';
}

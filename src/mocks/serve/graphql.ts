import type { IncomingMessage } from 'node:http';
import { CpuBudgetExceeded, startCpuBudget } from '../../gates/cpu-budget.js';
import type { Logger } from '../../server/logger.js';
import { prepareGraphql, type PreparedGraphql } from '../graphql/prepare.js';
import { readParams } from '../graphql/request.js';
import { runGraphql, type GraphqlResponse } from '../graphql/run.js';
import type { Delay, StoredMock } from '../record/record.js';
import type { Endpoint } from '../store/endpoint.js';
import { buildHead } from './answer-head.js';
import { requestInput } from './request-input.js';
import type { Answer } from './responder.js';

/** A GraphQL endpoint's answer, and what the request log adds: which response answered, the operation's name. */
export type GraphqlReply = { answer: Answer; response: number | null; delay: Delay; operationName?: string };

/** What answering needs of the endpoint server's options. */
export type GraphqlServeOptions = { cors: boolean; maxRequestCpu?: number; logger: Logger };

const STRICT_TYPE = 'application/graphql-response+json';

// Made once per endpoint version (a write replaces the record object): the schema built, `mocks` compiled.
const prepared = new WeakMap<StoredMock, PreparedGraphql>();

/**
 * Answers a request to an endpoint of `"kind": "graphql"` (docs/mock-api.md, "GraphQL"): the
 * GraphQL-over-HTTP shapes, application/graphql-response+json when the client accepts it.
 * `body` is what the request log read, cut at 64 KiB; a cut body is refused (413), not guessed at.
 */
export function answerGraphql(
  req: IncomingMessage,
  endpoint: Endpoint,
  body: string,
  truncated: boolean,
  options: GraphqlServeOptions,
): GraphqlReply {
  const { record } = endpoint;
  const { cors, maxRequestCpu, logger } = options;
  const url = req.url ?? '';
  const mark = url.indexOf('?');
  const search = new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1));
  const strict = (req.headers.accept ?? '').includes(STRICT_TYPE);
  const type = strict ? `${STRICT_TYPE}; charset=utf-8` : 'application/json; charset=utf-8';
  const reply = (status: number, value: unknown, extra: string[] = []): Answer => {
    const bytes = Buffer.from(JSON.stringify(value));
    return { status, head: [...buildHead(status, {}, bytes.length, type, cors, record.name), ...extra], body: bytes };
  };

  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
  const contentType = req.headers['content-type'];
  const params = readParams({ method, search, contentType, body, truncated });
  if ('status' in params) {
    const allow = params.allow ? ['Allow', params.allow] : [];
    return { answer: reply(params.status, { errors: [{ message: params.message }] }, allow), response: null, delay: record.delay };
  }
  // Called back once the body is read, outside the endpoint server's try: nothing may escape.
  let done;
  try {
    let ready = prepared.get(record);
    if (!ready) prepared.set(record, (ready = prepareGraphql(record.schema ?? '', record.mocks, true)));
    const cpu = startCpuBudget(maxRequestCpu);
    const input = requestInput(req, {}, body);
    const responses: GraphqlResponse[] = record.responses ?? [];
    done = runGraphql(params, { prepared: ready, responses, input, cpu, strict });
  } catch (err) {
    if (err instanceof CpuBudgetExceeded) return { answer: reply(503, { errors: [{ message: err.message }] }), response: null, delay: 0 };
    logger.error(`${req.method} ${req.url}: ${(err as Error).stack ?? String(err)}`);
    return { answer: reply(500, { errors: [{ message: 'internal server error' }] }), response: null, delay: 0 };
  }
  // The record's statusCode is its mocked answers' status; refusals and `responses` keep theirs.
  const status = done.response === null && 'data' in done.result ? record.statusCode : done.status;
  const reply405 = done.allow ? ['Allow', done.allow] : [];
  const delay = (done.response !== null && record.responses?.[done.response]?.delay) || record.delay;
  const result: GraphqlReply = { answer: reply(status, done.result, reply405), response: done.response, delay };
  if (done.operationName !== undefined) result.operationName = done.operationName;
  return result;
}

import type { IncomingMessage } from 'node:http';
import { startCpuBudget } from '../../gates/cpu-budget.js';
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
  cors: boolean,
  maxRequestCpu?: number,
): GraphqlReply {
  const { record } = endpoint;
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
  let ready = prepared.get(record);
  if (!ready) prepared.set(record, (ready = prepareGraphql(record.schema ?? '', record.mocks, true)));
  const cpu = startCpuBudget(maxRequestCpu);
  const input = requestInput(req, {}, body);
  const responses: GraphqlResponse[] = record.responses ?? [];
  const done = runGraphql(params, { prepared: ready, responses, input, cpu, strict });
  // The record's statusCode is its mocked answers' status; refusals and `responses` keep theirs.
  const status = done.response === null && 'data' in done.result ? record.statusCode : done.status;
  const reply405 = done.allow ? ['Allow', done.allow] : [];
  const delay = (done.response !== null && record.responses?.[done.response]?.delay) || record.delay;
  const result: GraphqlReply = { answer: reply(status, done.result, reply405), response: done.response, delay };
  if (done.operationName !== undefined) result.operationName = done.operationName;
  return result;
}

import type { IncomingMessage } from 'node:http';
import { CpuBudgetExceeded, DEFAULT_MAX_REQUEST_CPU, startCpuBudget } from '../../gates/cpu-budget.js';
import type { Logger } from '../../server/logger.js';
import type { Credential, Expects } from '../record/expects/expects.js';
import { PARAM_PLACES } from '../record/expects/expects.js';
import { LOG_BODY_BYTES } from '../log/request-log.js';
import type { RequestCheck } from '../serve/endpoint.js';
import { withBudget } from './compile-schemas.js';
import { compiledExpects, NoRoomToCompile } from './compiled-expects.js';
import type { MemoryAccount } from '../../gates/memory-budget.js';
import { cookiesOf, paramValues } from './read-params.js';
import { bodyType, parsedBody } from './request-body.js';
import { bodyProblem, paramProblem, type Problem } from './problems.js';

export type RequestCheckOptions = {
  /** The records' memory budget, charged for each schema compiled. */
  memory: MemoryAccount;
  maxRequestCpu?: number;
  logger: Logger;
};

/**
 * The request check the endpoint server runs before answering (serve/endpoint.ts), for the endpoints
 * it validates. In Prism's order:
 * credentials (401), then the body's media type (415), then parameters (400) and the body (422),
 * all listed together. Each schema is compiled at its first use and kept with the record.
 */
export function createRequestCheck(options: RequestCheckOptions): RequestCheck {
  const { logger } = options;
  const said = new WeakSet<Expects>();
  return (req, endpoint, route, body, truncated) => {
    const { expects, name } = endpoint.record;
    if (!expects) return undefined;
    const budget = startCpuBudget(options.maxRequestCpu ?? DEFAULT_MAX_REQUEST_CPU);
    try {
      return withBudget(budget, () => check(expects, options.memory, req, route, body, truncated, (why) => {
        if (said.has(expects)) return;
        said.add(expects);
        logger.warn(`endpoint '${name}': expects.${why}; that part of requests is not checked`);
      }));
    } catch (err) {
      if (err instanceof NoRoomToCompile) return { status: 507, body: { success: false, message: err.message } };
      if (!(err instanceof CpuBudgetExceeded)) throw err;
      return { status: 503, body: { success: false, message: err.message } };
    }
  };
}

function check(
  expects: Expects,
  memory: MemoryAccount,
  req: IncomingMessage,
  route: Record<string, string>,
  body: string,
  truncated: boolean,
  unusable: (why: string) => void,
): ReturnType<RequestCheck> {
  const missing = missingCredentials(expects.security, req);
  if (missing) return refusal(401, missing.problems, missing.challenge);
  const compiled = compiledExpects(expects, memory);
  const problems: Problem[] = [];
  const hasBody = body !== '' || truncated;
  let type: string | undefined;
  if (hasBody && expects.body) {
    const found = bodyType(req.headers['content-type'], expects.body.content);
    if ('refused' in found) return refusal(415, [found.refused]);
    type = found.type;
  }
  for (const place of PARAM_PLACES) {
    const part = compiled.params(place);
    if (!part) continue;
    if ('unusable' in part) {
      unusable(part.unusable);
      continue;
    }
    const values = paramValues(place, expects.params ?? [], req, route);
    for (const error of part.check(values)) problems.push(paramProblem(place, error));
  }
  if (expects.body?.required && !hasBody) {
    problems.push({ in: 'body', path: '', rule: 'required', expected: 'a request body', message: 'the request has no body' });
  } else if (truncated) {
    const message = `the body is longer than the ${LOG_BODY_BYTES} bytes a request is checked on`;
    return refusal(413, [{ in: 'body', path: '', rule: 'size', expected: `at most ${LOG_BODY_BYTES} bytes`, message }]);
  } else if (type !== undefined) {
    const part = compiled.body(type);
    if (part && 'unusable' in part) unusable(part.unusable);
    else if (part) {
      const data = parsedBody(req.headers['content-type'], body);
      if ('problem' in data) problems.push(data.problem);
      else if (data.value !== undefined) for (const error of part.check(data.value)) problems.push(bodyProblem(error));
    }
  }
  if (problems.length === 0) return undefined;
  return refusal(problems.some((problem) => problem.in !== 'body') ? 400 : 422, problems);
}

function refusal(status: number, errors: Problem[], head?: string[]): ReturnType<RequestCheck> {
  const what = status === 401 ? 'no credentials' : status === 413 ? 'a body too long to check' : status === 415 ? 'an undocumented content type' : `${errors.length} problem${errors.length === 1 ? '' : 's'}`;
  const message = `the request does not match what this endpoint expects: ${what}`;
  return { status, body: { success: false, message, errors }, ...(head && { head }) };
}

/**
 * Whether any alternative's credentials are all present (their values are not checked); when none
 * is, what each alternative lacks, and the challenge of the Authorization schemes asked for.
 */
function missingCredentials(
  security: Credential[][] | undefined,
  req: IncomingMessage,
): { problems: Problem[]; challenge?: string[] } | undefined {
  if (!security || security.length === 0) return undefined;
  let query: URLSearchParams | undefined;
  let cookies: Map<string, string[]> | undefined;
  const present = (credential: Credential): boolean => {
    if (credential.in === 'header') {
      const value = req.headers[credential.name];
      if (typeof value !== 'string' || value === '') return false;
      return !credential.scheme || value.toLowerCase().startsWith(`${credential.scheme} `);
    }
    if (credential.in === 'query') {
      const url = req.url ?? '';
      query ??= new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
      return query.has(credential.name);
    }
    cookies ??= cookiesOf(req.headers.cookie);
    return cookies.has(credential.name);
  };
  if (security.some((alternative) => alternative.every(present))) return undefined;
  const problems = security.flatMap((alternative) =>
    alternative.filter((credential) => !present(credential)).map((credential): Problem => {
      const expected = credential.scheme ? `${credential.name}: ${credential.scheme} …` : `a ${credential.in} '${credential.name}'`;
      return { in: 'security', name: credential.name, path: '', rule: 'security', expected, message: `no ${expected}` };
    }),
  );
  const schemes = [...new Set(security.flat().flatMap((credential) => (credential.scheme ? [credential.scheme] : [])))];
  const challenge = schemes.length > 0 ? ['WWW-Authenticate', schemes.map(challengeOf).join(', ')] : undefined;
  return { problems, ...(challenge && { challenge }) };
}

function challengeOf(scheme: string): string {
  const named = scheme.charAt(0).toUpperCase() + scheme.slice(1);
  return scheme === 'basic' ? `${named} realm="snippetkit"` : named;
}

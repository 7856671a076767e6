import type { ErrorObject } from 'ajv';
import type { ParamPlace } from '../record/expects/expects.js';

/** One thing wrong with a request, as the refusal lists it (docs/mock-api.md, "Request validation"). */
export type Problem = {
  in: ParamPlace | 'body' | 'security';
  /** The parameter, or for security the credential, named. */
  name?: string;
  /** A JSON Pointer into the place's parameters as one object (`/limit`, `/ids/1`) or into the body. */
  path: string;
  /** The JSON Schema keyword that failed, or `required`, `contentType`, `security`, `json`, `size`. */
  rule: string;
  expected?: string;
  message: string;
};

export function paramProblem(place: ParamPlace, error: ErrorObject): Problem {
  // The object of a place's values is checked whole: its first pointer segment is the parameter.
  const pointer = error.keyword === 'required' ? `/${String(error.params.missingProperty)}` : error.instancePath;
  const name = pointer.split('/')[1]!.replace(/~1/g, '/').replace(/~0/g, '~');
  return { in: place, name, path: pointer, ...described(error) };
}

export function bodyProblem(error: ErrorObject): Problem {
  const path = error.keyword === 'required' ? `${error.instancePath}/${String(error.params.missingProperty)}` : error.instancePath;
  return { in: 'body', path, ...described(error) };
}

/** The rule, what it asks for in a few words, and ajv's message. */
function described(error: ErrorObject): Pick<Problem, 'rule' | 'expected' | 'message'> {
  const { params } = error;
  const expected =
    params.type !== undefined ? String(params.type)
    : params.allowedValues !== undefined ? (params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')
    : params.format !== undefined ? String(params.format)
    : params.limit !== undefined ? `${error.keyword} ${String(params.limit)}`
    : params.pattern !== undefined ? String(params.pattern)
    : params.missingProperty !== undefined ? 'present'
    : undefined;
  const extra = params.additionalProperty ?? params.unevaluatedProperty;
  const message = extra === undefined ? (error.message ?? error.keyword) : `${error.message}: ${String(extra)}`;
  return { rule: error.keyword, ...(expected !== undefined && { expected }), message };
}

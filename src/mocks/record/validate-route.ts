import { bad, checkMethod } from './validate-fields.js';

/** Longest `path`, in characters. */
export const MAX_PATH = 512;
/** Most segments in a `path`: deeper routes only make lookups walk further. */
export const MAX_SEGMENTS = 32;
/** Most methods an endpoint may list. */
const MAX_METHODS = 32;

// A static segment takes the characters a name takes and the other ones a URL path may hold (a `:`
// not first: `things:batchGet`); `.` and `..` are what URLs normalize away. A `?` or `#` (an OpenAPI
// path key such as `/shared_items#folders`) matches only percent-encoded: sent plain it starts the
// query, or is never sent.
const STATIC = /^[A-Za-z0-9._~!$&'()+,;=@?#-][A-Za-z0-9._~!$&'()+,;=@?#:-]*$/;
const PARAM = /^:([A-Za-z_][A-Za-z0-9_]*)(\?)?$/;

/** The path of an endpoint at `/endpoint/` itself; kept as written so that it reads back the same. */
export const ROOT_PATH = '/';

/** A checked path and the names of its parameters, in order (`*` for a final wildcard). */
export type CheckedPath = { path: string; params: string[] };

/**
 * Checks `path` (docs/mock-api.md, "The endpoint record"): `/` alone is the root, `/endpoint/`
 * itself (an OpenAPI operation at `/`); else one leading and one trailing slash are dropped, then
 * each segment is static, `:param`, `:param?` (only at the end) or a final `*`.
 */
export function checkPath(value: unknown): CheckedPath {
  if (typeof value !== 'string') throw bad('path', 'path must be a string such as users/:id');
  if (value === ROOT_PATH) return { path: ROOT_PATH, params: [] };
  if (value.length > MAX_PATH) throw bad('path', `path must be at most ${MAX_PATH} characters`);
  const path = value.replace(/^\//, '').replace(/\/$/, '');
  if (path === '') throw bad('path', 'path must not be empty (the root, /endpoint/ itself, is "/")');
  const params: string[] = [];
  let optional = false;
  const segments = path.split('/');
  if (segments.length > MAX_SEGMENTS) throw bad('path', `path must have at most ${MAX_SEGMENTS} segments`);
  for (const [i, segment] of segments.entries()) {
    const at = `path: segment ${i + 1} ('${segment}')`;
    if (segment === '') throw bad('path', `path: segment ${i + 1} is empty (two slashes in a row)`);
    if (segment === '*') {
      if (i !== segments.length - 1) throw bad('path', `${at}: a wildcard must be the last segment`);
      if (optional) throw bad('path', `${at}: a wildcard cannot follow an optional parameter`);
      params.push('*');
      continue;
    }
    const param = PARAM.exec(segment);
    if (param) {
      const name = param[1]!;
      if (params.includes(name)) throw bad('path', `${at}: the parameter '${name}' is named twice`);
      if (optional && !param[2]) throw bad('path', `${at}: only the last segments may be optional`);
      optional ||= param[2] !== undefined;
      params.push(name);
      continue;
    }
    if (segment.startsWith(':')) {
      throw bad('path', `${at}: a parameter name starts with a letter or _ and holds letters, digits and _`);
    }
    if (!STATIC.test(segment)) {
      throw bad('path', `${at}: a segment holds letters, digits and . _ ~ - ! $ & ' ( ) + , ; = @ ? # and : not first (or is :param, :param? or *)`);
    }
    if (segment === '.' || segment === '..') throw bad('path', `${at}: '.' and '..' are not segments`);
    if (optional) throw bad('path', `${at}: only the last segments may be optional`);
  }
  return { path, params };
}

/** A non-empty list of method names, upper-cased, each once. */
export function checkMethods(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw bad('methods', 'methods must be a non-empty list of HTTP methods such as ["GET", "PUT"]');
  }
  if (value.length > MAX_METHODS) throw bad('methods', `methods must list at most ${MAX_METHODS} methods`);
  const methods = value.map((method, i) => checkMethod(method, `methods[${i}]`));
  return [...new Set(methods)];
}

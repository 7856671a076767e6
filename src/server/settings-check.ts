import { z } from 'zod/v3';

// One home for what a settings problem says, whoever starts the server: the CLI (which makes it a
// usage error) or the Node API (which rejects with it).

/** Where a setting's value came from, so an error can send the user to the right place. */
export type Source =
  | { kind: 'file'; file: string }
  | { kind: 'env'; name: string; raw: string }
  | { kind: 'flag'; name: string; raw: string };

/** Sources by the setting's path, dotted ("api.allowAnonymousRead"). */
export type Sources = Map<string, Source>;

/** Settings that do not fit their schema: the message names the key, its value and where it came from. */
export class SettingsError extends Error {
  override name = 'SettingsError';
}

/** `value` checked against `schema`; the first problem is a SettingsError naming key, value and source. */
export function checkSettings<S extends z.ZodType>(schema: S, value: unknown, sources: Sources = new Map()): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new SettingsError(describeIssue(result.error.issues[0]!, value, sources, schema));
}

function describeIssue(issue: z.ZodIssue, value: unknown, sources: Sources, schema: z.ZodType): string {
  if (issue.code === 'unrecognized_keys') {
    const path = [...issue.path, issue.keys[0]!];
    const known = Object.keys(shapeAt(schema, issue.path)).join(', ');
    return `${describeWhere(path, sources)} is not a setting; the keys there are ${known}`;
  }
  const source = sourceOf(issue.path, sources);
  if (source && source.kind !== 'file') {
    const shown =
      source.kind === 'env' ? `${source.name}=${source.raw} (environment)` : `${source.name} ${source.raw} (flag)`;
    return `${shown} is not ${issue.message}`;
  }
  const found = valueAt(value, issue.path);
  return `${describeWhere(issue.path, sources)} is ${show(found)}; use ${issue.message}`;
}

/** "api.allowAnonymousRead in ./cfg.json" or, for an environment variable, its name. */
function describeWhere(path: PropertyKey[], sources: Sources): string {
  const key = dotted(path) || '(the top level)';
  const source = sourceOf(path, sources);
  if (!source) return key;
  if (source.kind === 'file') return `${key} in ${source.file}`;
  return `${key} (from ${source.name})`;
}

/** The source recorded for `path` or for the nearest setting that holds it (a list set whole, say). */
function sourceOf(path: PropertyKey[], sources: Sources): Source | undefined {
  for (let end = path.length; end >= 0; end--) {
    const source = sources.get(dotted(path.slice(0, end)));
    if (source) return source;
  }
  return undefined;
}

function dotted(path: PropertyKey[]): string {
  return path.map(String).join('.');
}

function valueAt(value: unknown, path: PropertyKey[]): unknown {
  let at = value;
  for (const key of path) at = (at as Record<PropertyKey, unknown> | undefined)?.[key];
  return at;
}

function show(value: unknown): string {
  const json = JSON.stringify(value);
  if (value === null) return 'null';
  // Only the Node API's options can hold one (a logger given as console.log, say); JSON has none.
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return `${json}, a list`;
  return `${json}, ${typeof value === 'object' ? 'an object' : `a ${typeof value}`}`;
}

function shapeAt(schema: z.ZodType, path: PropertyKey[]): Record<string, unknown> {
  let at: unknown = schema;
  for (const key of path) at = at instanceof z.ZodObject ? (at.shape as Record<PropertyKey, unknown>)[key] : undefined;
  return at instanceof z.ZodObject ? (at.shape as Record<string, unknown>) : {};
}

import { z } from 'zod/v3';
import { CliError, EXIT } from '../common/errors.js';

/** Where a setting's value came from, so an error can send the user to the right place. */
export type Source =
  | { kind: 'file'; file: string }
  | { kind: 'env'; name: string; raw: string }
  | { kind: 'flag'; name: string; raw: string };

/** Sources by the setting's path, dotted ("api.allowAnonymousRead"). */
export type Sources = Map<string, Source>;

/**
 * An environment variable's or flag's text as the type its setting has by default: true/false for
 * switches, numbers for numbers, a JSON list for lists. Text that does not convert stays text, and
 * the schema then refuses it with a message naming the variable.
 */
export function fromText(raw: string, like: unknown): unknown {
  if (typeof like === 'boolean') {
    if (/^(true|1|yes)$/i.test(raw)) return true;
    if (/^(false|0|no)$/i.test(raw)) return false;
  } else if (typeof like === 'number') {
    if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  } else if (Array.isArray(like)) {
    try {
      const value: unknown = JSON.parse(raw);
      if (Array.isArray(value)) return value;
    } catch {
      // left as text for the schema to refuse
    }
  }
  return raw;
}

/** `value` checked against `schema`; the first problem is a usage error (exit 2) naming key, value and source. */
export function validateSettings<S extends z.ZodType>(schema: S, value: unknown, sources: Sources): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new CliError(describeIssue(result.error.issues[0]!, value, sources, schema), EXIT.usage);
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
  if (Array.isArray(value)) return `${json}, a list`;
  return `${json}, ${typeof value === 'object' ? 'an object' : `a ${typeof value}`}`;
}

function shapeAt(schema: z.ZodType, path: PropertyKey[]): Record<string, unknown> {
  let at: unknown = schema;
  for (const key of path) at = at instanceof z.ZodObject ? (at.shape as Record<PropertyKey, unknown>)[key] : undefined;
  return at instanceof z.ZodObject ? (at.shape as Record<string, unknown>) : {};
}

/** One setting of a server that has flags and variables but no config file. */
export type FlatSetting = { key: string; flag: string; env: string; fallback: unknown };

/**
 * Flags over environment over defaults, each value recorded with its source. Flags and variables
 * come in as text (lists as repeated flags, or comma-separated in a variable); an empty variable is unset.
 */
export function layerSettings(
  settings: readonly FlatSetting[],
  flags: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): { value: Record<string, unknown>; sources: Sources } {
  const value: Record<string, unknown> = {};
  const sources: Sources = new Map();
  for (const { key, flag, env: name, fallback } of settings) {
    value[key] = fallback;
    const raw = env[name];
    if (raw !== undefined && raw !== '') {
      value[key] = Array.isArray(fallback) ? splitList(raw) : fromText(raw, fallback);
      sources.set(key, { kind: 'env', name, raw });
    }
    const given = flags[key];
    if (given === undefined) continue;
    value[key] = typeof given === 'string' ? fromText(given, fallback) : given;
    sources.set(key, { kind: 'flag', name: flag, raw: Array.isArray(given) ? given.join(' ') : String(given) });
  }
  return { value, sources };
}

function splitList(raw: string): string[] {
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * A variable that starts like a server's settings (`prefix`) but names none of them is a typo that
 * would otherwise be ignored, leaving the server more open than asked: a usage error listing the right names.
 */
export function refuseUnknownVariables(
  env: NodeJS.ProcessEnv,
  prefix: string,
  known: readonly string[],
  /** Read by other commands (the clients), so neither refused nor offered. */
  others: readonly string[] = [],
): void {
  for (const name of Object.keys(env)) {
    if (!name.startsWith(prefix) || known.includes(name) || others.includes(name) || env[name] === '') continue;
    const near = known.filter((candidate) => candidate.startsWith(prefix)).join(', ');
    throw new CliError(`${name} (environment) is not a setting; known ones: ${near}`, EXIT.usage);
  }
}

/** Two settings that must not both be given (e.g. --data and --store): a usage error naming where each came from. */
export function refuseBoth(settings: Record<string, unknown>, sources: Sources, one: string, other: string, what: string): void {
  if (settings[one] === undefined || settings[other] === undefined) return;
  const named = (key: string) => {
    const source = sources.get(key);
    return source && source.kind !== 'file' ? source.name : key;
  };
  throw new CliError(`${named(one)} and ${named(other)} both name ${what}; give one`, EXIT.usage);
}

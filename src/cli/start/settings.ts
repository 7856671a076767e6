import { z } from 'zod/v3';
import { checkSettings, SettingsError, type Sources } from '../../server/settings-check.js';
import { CliError, EXIT } from '../common/errors.js';

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
  try {
    return checkSettings(schema, value, sources);
  } catch (err) {
    if (err instanceof SettingsError) throw new CliError(err.message, EXIT.usage);
    throw err;
  }
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

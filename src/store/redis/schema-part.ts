import { DataFileError } from '../data-file.js';
import { luaScript, unavailableOnFailure } from './client.js';

/** The script prepareRedisPart runs: include it in the client's scripts. */
export const schemaScripts = {
  /** KEYS schema; ARGV part, version. Records `version` unless a newer one is; returns the stored one (0: none). */
  schemaPart: luaScript(
    `local stored = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
    if stored < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
    return stored`,
    1,
  ),
};

/** One part of our keys under a prefix (the bins, the mocks), versioned on its own in the `schema` hash. */
export type RedisSchemaPart = {
  /** The prefix's schema hash: part -> version. */
  key: string;
  part: string;
  version: number;
  /** What the keys hold, for the refusal: `the bins`. */
  what: string;
  /** The URL without its password, and the prefix, for the refusal. */
  where: string;
  prefix: string;
};

/** Records the part's version; refuses keys a newer version wrote (DataFileError: the CLI exits 3). */
export async function prepareRedisPart(
  client: { schemaPart(keys: string[], args: string[]): Promise<unknown> },
  schema: RedisSchemaPart,
): Promise<void> {
  const stored = Number(await unavailableOnFailure(() => client.schemaPart([schema.key], [schema.part, String(schema.version)])));
  if (stored > schema.version) {
    throw new DataFileError(
      `${schema.what} in Redis at ${schema.where} (prefix ${schema.prefix}) were written by a newer snippetkit (schema ${stored}); upgrade it`,
    );
  }
}

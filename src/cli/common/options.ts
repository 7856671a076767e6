import { InvalidArgumentError, Option } from 'commander';

/** commander argument parser for a non-negative integer. */
export function parseCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('must be a whole number');
  return n;
}


/** `--allowed-host NAME`, repeatable, as both serve commands declare it (the Host check is in src/server). */
export function allowedHostOption(envName: string): Option {
  return new Option(
    '--allowed-host <name>',
    `answer requests for this Host besides localhost; repeatable; "all" turns the check off (env ${envName}, commas)`,
  ).argParser((name: string, names: string[] = []) => [...names, name]);
}

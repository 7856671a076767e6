import { InvalidArgumentError } from 'commander';

/** commander argument parser for a non-negative integer. */
export function parseCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('must be a whole number');
  return n;
}


import { InvalidArgumentError } from 'commander';

/** commander argument parser for a TCP port (0 = any free port). */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('must be a port number from 0 to 65535');
  return port;
}

/** commander argument parser for a non-negative integer. */
export function parseCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('must be a whole number');
  return n;
}

/** A port from an environment variable, or undefined; a bad value is an error naming the variable. */
export function envPort(name: string, env: NodeJS.ProcessEnv = process.env): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  try {
    return parsePort(value);
  } catch {
    throw new InvalidArgumentError(`${name}=${value} must be a port number from 0 to 65535`);
  }
}

import { InvalidArgumentError } from 'commander';
import type { Delay, Fault } from '../../mocks/record/record.js';

/** What `mock add` is given besides NAME and FILE; the parsers below have checked each value. */
export type MockAddFlags = {
  status?: number;
  delay?: Delay;
  header: string[];
  force?: boolean;
  path?: string;
  method: string[];
  template?: boolean;
  fault?: Fault;
  faultRate?: number;
  bodyFile?: string;
  endpoint?: string;
};

const NUMBER = /^\d+(\.\d+)?$/;
// RFC 9110 token, as the server checks a method name
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const collect = (value: string, previous: string[]) => [...previous, value];

/** `--delay 250` (milliseconds) or `--delay 100-400` (drawn uniformly per request). */
export function parseDelay(value: string): Delay {
  const text = value.trim();
  if (NUMBER.test(text)) return Number(text);
  const range = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(text);
  if (!range) throw new InvalidArgumentError('must be milliseconds (250) or a range MIN-MAX (100-400)');
  const [min, max] = [Number(range[1]), Number(range[2])];
  if (min > max) throw new InvalidArgumentError(`the range ${text} starts above its end; give MIN-MAX`);
  return { min, max };
}

/** `--fault-rate 0.2`: the share of requests the fault happens to. */
export function parseRate(value: string): number {
  const n = Number(value.trim());
  if (!NUMBER.test(value.trim()) || n > 1) throw new InvalidArgumentError('must be a number from 0 to 1, such as 0.2');
  return n;
}

/** `--method put --method GET`: upper-cased, each once. */
export function collectMethod(value: string, previous: string[]): string[] {
  if (!TOKEN.test(value)) throw new InvalidArgumentError(`'${value}' is not an HTTP method name`);
  const method = value.toUpperCase();
  return previous.includes(method) ? previous : [...previous, method];
}

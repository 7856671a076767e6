import type { IncomingHttpHeaders } from 'node:http';
import { jsonCost, LOG_ENTRY_BYTES, LOG_HEADER_BYTES, LOG_HEADER_CAP, textCost } from '../../gates/memory-budget.js';

/** The parts of a request-log entry (./request-log.ts) that cost memory by their size. */
type Sized = {
  url: string;
  ip: string | undefined;
  body: string;
  headers: IncomingHttpHeaders;
  headersCut?: number;
  bin?: string;
  operationName?: string;
  callbacks?: { url: string }[];
};

/** A callback's result in an entry beyond its URL: the object, its method, and the status or error it gets later (ours, short). */
const CALLBACK_RESULT_BYTES = 512;

/**
 * Cuts the entry's headers to the first LOG_HEADER_CAP (noting how many went), then says what it
 * costs in memory at the measured rates (../../gates/memory-budget.ts): node allows 2,000 headers
 * in 16 KiB, and each costs a dictionary slot and two strings, eight times its text.
 */
export function keptCost(entry: Sized): number {
  let count = 0;
  let cost = LOG_ENTRY_BYTES + textCost(entry.body) + entry.url.length + (entry.ip?.length ?? 0) + (entry.bin?.length ?? 0);
  cost += entry.operationName?.length ?? 0;
  if (entry.callbacks) for (const callback of entry.callbacks) cost += CALLBACK_RESULT_BYTES + 2 * callback.url.length;
  for (const name in entry.headers) {
    if (++count > LOG_HEADER_CAP) return keptCost(cutHeaders(entry));
    const value = entry.headers[name];
    cost += LOG_HEADER_BYTES + name.length;
    if (typeof value === 'string') cost += value.length;
    else if (value !== undefined) for (const one of value) cost += LOG_HEADER_BYTES + one.length;
  }
  return cost;
}

function cutHeaders<T extends Sized>(entry: T): T {
  const kept: IncomingHttpHeaders = {};
  let count = 0;
  for (const name in entry.headers) if (count++ < LOG_HEADER_CAP) kept[name] = entry.headers[name];
  entry.headers = kept;
  entry.headersCut = (entry.headersCut ?? 0) + count - LOG_HEADER_CAP;
  return entry;
}

/** What an entry loaded from the data file costs: its text now, or what parsing it on first read makes of it. */
export function savedCost(text: string): number {
  return LOG_ENTRY_BYTES + jsonCost(text);
}

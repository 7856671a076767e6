import { HttpError } from '../../http/errors.js';
import type { KeyQueue } from '../../store/key-queue.js';
import type { MockInput, StoredMock } from '../record/record.js';
import { RouteTable } from './route-table.js';
import type { StatsJournal } from '../engines/stats-journal.js';
import type { Endpoint } from './endpoint.js';

/** What one sync changed, by name. */
export type SourceChange = { added: string[]; changed: string[]; removed: string[] };

/** A record of a source refused as a whole sync is: `index` is its place in the inputs. */
export class SourceRecordError extends HttpError {
  constructor(
    status: number,
    message: string,
    field: string,
    readonly index: number,
  ) {
    super(status, message, field);
  }
}

/** The store's parts a sync changes, in the same synchronous step as the store itself would. */
export type SourceParts = {
  endpoints: Map<string, Endpoint>;
  routes: RouteTable<Endpoint>;
  /** Routes of API writes under way. */
  reserved: RouteTable<undefined>;
  queue: KeyQueue;
  journal: StatsJournal;
  maxEndpoints: number;
  /** New names API writes are creating. */
  creating(): number;
  toEndpoint(record: StoredMock, stats: Endpoint['stats'], source: string): Endpoint;
  patternOf(input: MockInput): string;
};

/**
 * Replaces every endpoint of `source` (a file) with `inputs` at once, in memory only: files are the
 * truth, so their records are never written to the data file (their counters and logs are). Every
 * check runs before anything changes, so a refused record leaves the source's endpoints as they were.
 */
export function createSourceSync(parts: SourceParts) {
  const { endpoints, routes, reserved, queue, journal } = parts;
  const bySource = new Map<string, Set<string>>();

  return async (source: string, inputs: MockInput[]): Promise<SourceChange> => {
    const mine = bySource.get(source) ?? new Set<string>();
    const ignore = (key: string) => mine.has(key);
    const own = new RouteTable<undefined>();
    const seen = new Set<string>();
    inputs.forEach((input, index) => {
      const { name } = input;
      const refuse = (status: number, message: string, field = 'name') => {
        throw new SourceRecordError(status, message, field, index);
      };
      if (seen.has(name)) refuse(409, `name '${name}' is given twice in this file`);
      seen.add(name);
      const held = endpoints.get(name);
      if (held && held.source !== source) refuse(409, `name '${name}' is taken by ${origin(held.source)}`);
      if (!held && queue.busy(name)) refuse(409, `name '${name}' is being written through the API`);
      const pattern = parts.patternOf(input);
      const other =
        own.conflict(name, pattern, input.methods) ??
        routes.conflict(name, pattern, input.methods, ignore) ??
        reserved.conflict(name, pattern, input.methods);
      if (other !== undefined) {
        const from = endpoints.get(other)?.source;
        refuse(409, `path '${pattern}' overlaps endpoint '${other}' (${origin(from)}): same route shape`, 'path');
      }
      own.set(name, pattern, input.methods, undefined);
    });
    const growth = inputs.filter((input) => !mine.has(input.name)).length - removedCount(mine, inputs);
    if (growth > 0 && endpoints.size + parts.creating() + growth > parts.maxEndpoints) {
      const max = parts.maxEndpoints;
      throw new SourceRecordError(507, `no room for these endpoints: at most ${max} (--max-endpoints)`, 'name', 0);
    }

    const change: SourceChange = { added: [], changed: [], removed: [] };
    const kept = new Set(inputs.map((input) => input.name));
    const drops: Promise<void>[] = [];
    for (const name of mine) {
      if (kept.has(name)) continue;
      const endpoint = endpoints.get(name)!;
      endpoints.delete(name);
      routes.remove(name);
      drops.push(journal.drop(name, endpoint.stats));
      change.removed.push(name);
    }
    const now = new Date().toISOString();
    for (const input of inputs) {
      const old = endpoints.get(input.name);
      if (old && sameInput(old.record, input)) continue;
      const record: StoredMock = { ...input, created: old?.record.created ?? now, updated: now };
      const endpoint = parts.toEndpoint(record, old?.stats ?? journal.statsFor(input.name), source);
      endpoints.set(input.name, endpoint);
      routes.set(input.name, parts.patternOf(input), input.methods, endpoint);
      (old ? change.changed : change.added).push(input.name);
    }
    if (kept.size === 0) bySource.delete(source);
    else bySource.set(source, kept);
    await Promise.all(drops);
    return change;
  };
}

/** Who holds a name: a file's source, or the API. */
export function origin(source: string | undefined): string {
  return source ? source : 'an endpoint made through the API';
}

function removedCount(mine: Set<string>, inputs: MockInput[]): number {
  const kept = new Set(inputs.map((input) => input.name));
  return [...mine].filter((name) => !kept.has(name)).length;
}

function sameInput(record: StoredMock, input: MockInput): boolean {
  const { created: _created, updated: _updated, ...rest } = record;
  return JSON.stringify(rest) === JSON.stringify(input);
}

/**
 * The memory gate (docs/security.md): one accountant for everything an anonymous client can
 * make a server keep, charged at what it was measured to cost, against budgets that are flags.
 * Plumbing: imports nothing of the project, so any wing may charge it.
 *
 * The figures below were measured with heapUsed + arrayBuffers after a forced GC, in a process
 * holding thousands of each thing (Node 20, V8 11.3); each charge is at least what was measured.
 */

/** What a budget is kept for. */
export type MemoryKind = 'records' | 'logs' | 'collections' | 'streams' | 'connections' | 'callbacks';

export type MemoryLimits = Record<MemoryKind, number>;

const MB = 1024 * 1024;

export const DEFAULT_MEMORY_LIMITS: MemoryLimits = {
  /** Endpoint records (--max-store-bytes). */
  records: 256 * MB,
  /** Request logs (--max-log-bytes); past it the oldest entries go. */
  logs: 256 * MB,
  /** Live data of collection endpoints, all together. */
  collections: 64 * MB,
  /** Bytes event streams (live request logs) hold for readers that fell behind, all together. */
  streams: 64 * MB,
  /** Connections a `hang` fault holds open. */
  connections: 32 * MB,
  /** Callbacks waiting out their delay or on their way (their rendered requests); past it, one is not sent. */
  callbacks: 16 * MB,
};

/** One kind's budget: what is charged now, and the most it may hold. */
export class MemoryAccount {
  used = 0;

  constructor(
    readonly kind: MemoryKind,
    readonly limit: number,
  ) {}

  /** Whether `bytes` more fit, once `freed` (what they replace) has gone. */
  fits(bytes: number, freed = 0): boolean {
    return this.used - freed + bytes <= this.limit;
  }

  /** Charges `bytes` whatever the limit: for keepers that evict (logs) or drop (streams) to get back under it. */
  charge(bytes: number): void {
    this.used += bytes;
  }

  /** Charges `bytes` when they fit (see fits); false, charging nothing, when they do not. */
  tryCharge(bytes: number, freed = 0): boolean {
    if (!this.fits(bytes, freed)) return false;
    this.used += bytes;
    return true;
  }

  release(bytes: number): void {
    this.used -= bytes;
  }

  get over(): boolean {
    return this.used > this.limit;
  }
}

/** The accountant: one per server, handed to every keeper; `limits` default to DEFAULT_MEMORY_LIMITS. */
export class MemoryBudget {
  readonly records: MemoryAccount;
  readonly logs: MemoryAccount;
  readonly collections: MemoryAccount;
  readonly streams: MemoryAccount;
  readonly connections: MemoryAccount;
  readonly callbacks: MemoryAccount;

  constructor(limits: Partial<MemoryLimits> = {}) {
    const all = { ...DEFAULT_MEMORY_LIMITS, ...limits };
    this.records = new MemoryAccount('records', all.records);
    this.logs = new MemoryAccount('logs', all.logs);
    this.collections = new MemoryAccount('collections', all.collections);
    this.streams = new MemoryAccount('streams', all.streams);
    this.connections = new MemoryAccount('connections', all.connections);
    this.callbacks = new MemoryAccount('callbacks', all.callbacks);
  }

  /** Every account, for a status line or a test. */
  accounts(): MemoryAccount[] {
    return [this.records, this.logs, this.collections, this.streams, this.connections, this.callbacks];
  }

  /** Bytes charged to all accounts; at most the sum of the limits (plus what evicting keepers overshoot by one entry). */
  get used(): number {
    return this.accounts().reduce((sum, account) => sum + account.used, 0);
  }

  get limit(): number {
    return this.accounts().reduce((sum, account) => sum + account.limit, 0);
  }
}

/**
 * A Map whose values are charged to `account` at `cost(value)` while they are in it, whichever code
 * sets or deletes them: `cost` must give the same figure for a value each time it is asked.
 */
export class ChargedMap<K, V> extends Map<K, V> {
  constructor(
    private readonly account: MemoryAccount,
    private readonly cost: (value: V) => number,
  ) {
    super();
  }

  override set(key: K, value: V): this {
    const old = super.get(key);
    if (old !== undefined) this.account.release(this.cost(old));
    this.account.charge(this.cost(value));
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    const old = super.get(key);
    if (old !== undefined) this.account.release(this.cost(old));
    return super.delete(key);
  }

  override clear(): void {
    for (const value of super.values()) this.account.release(this.cost(value));
    super.clear();
  }
}

// ---- What things cost (measured; see docs/security.md for the table) ----

/**
 * An endpoint beyond its texts: the record object, its route, counters, empty log and prepared
 * answer. Measured 4.0 KB for a record of 145 bytes.
 */
export const RECORD_BYTES = 8 * 1024;
/** Per byte of a record's data or body text: the text and the Buffer it is served from (2.04 measured at 1 MB). */
export const TEXT_FACTOR = 2.1;
/** Per byte of a template's text: its source, parsed program and compiled code (3.14 measured). */
export const TEMPLATE_FACTOR = 4;
/** Per template expression (`{{`): a Handlebars helper call measured 8.7 KB once compiled, a plain path 0.9 KB. */
export const TEMPLATE_EXPRESSION_BYTES = 12 * 1024;
/**
 * Per token of a GraphQL endpoint's schema (SDL), built once for serving without locations: measured
 * 426 B for enum values (the worst seen), 235 B for fields, 75 B for arguments; a description or
 * comment is one token, so a long one is charged as its text.
 */
export const GRAPHQL_TOKEN_BYTES = 512;
/** A logged request beyond its texts and headers (measured 650 B with 3 headers). */
export const LOG_ENTRY_BYTES = 1536;
/** Per header kept in a log entry, beyond its text (measured 87–95 B for short ones: a dictionary slot and two strings). */
export const LOG_HEADER_BYTES = 128;
/** Headers a log entry keeps; the rest are cut, and the entry says how many. */
export const LOG_HEADER_CAP = 100;
/** A collection beyond its items (its kept state and version). */
export const COLLECTION_BYTES = 1024;
/**
 * A connection held open by a `hang` fault, beyond its request's header text: socket, parser,
 * request and response (measured 5.3 KB with a 20-byte head, 20.4 KB with a 15 KB one).
 */
export const HELD_CONNECTION_BYTES = 8 * 1024;
/**
 * A callback waiting or on its way, beyond its texts (charged at two bytes a character): its timer,
 * closures and, once sent, an outgoing request and socket: charged as a held connection is (HELD_CONNECTION_BYTES).
 */
export const CALLBACK_BYTES = 8 * 1024;

/**
 * A request check's compiled schema (mocks/request-check/), charged to the records when it is compiled:
 * an ajv instance of the record's own (its formats and keywords) and the generated code. Measured 33 KB
 * a schema for small ones (66 KB for a record's parameter and body schemas of 100 bytes each), 35 KB for
 * a 3.8 KB schema of 100 properties, 91 KB for 28 KB of 700.
 */
export const COMPILED_SCHEMA_BYTES = 40 * 1024;
export const COMPILED_SCHEMA_FACTOR = 3;

/**
 * An upper bound of the heap that JSON.parse(text) takes, from its text: 2 per character (a string
 * may be two-byte), 64 per object or array and per key, 16 per element or property slot. Measured
 * heap per byte of JSON: 9.8 for arrays of empty arrays (the worst seen), 7.6 for empty objects, 5.1
 * for objects of 40 distinct keys, 4.0 for lists of numbers, 1.0 for long strings; this charges
 * 21, 22, 7.3, 10 and 2 for those. Counts brackets inside strings too, which only charges more.
 */
export function jsonCost(text: string): number {
  let structure = 0;
  let slots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // { [ :
    if (c === 123 || c === 91 || c === 58) structure++;
    // ,
    else if (c === 44) slots++;
  }
  return 2 * text.length + 64 * structure + 16 * slots;
}

/** Heap a string takes: one byte a character when it is all Latin-1 (ASCII checked, as the cheap case), else two. */
export function textCost(text: string): number {
  return Buffer.byteLength(text, 'utf8') === text.length ? text.length : 2 * text.length;
}

/** Count of `{{` in `text`: the template expressions it may hold, at most. */
export function expressionCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf('{{'); at !== -1; at = text.indexOf('{{', at + 2)) count++;
  return count;
}

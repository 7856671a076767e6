import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { BudgetedLog, LogBudget } from './budget.js';
import { keptCost, savedCost } from './entry-cost.js';
import type { Answered, CallbackResult } from '../record/record.js';

/** How much of each request's body a log keeps. */
export const LOG_BODY_BYTES = 64 * 1024;

/** One request an endpoint received: what a webhook sender actually sent, and which answer it got. */
export type LoggedRequest = Answered & {
  time: string;
  method: string;
  /** Path and query, as sent. */
  url: string;
  ip: string | undefined;
  /** The first LOG_HEADER_CAP (100) headers. */
  headers: IncomingHttpHeaders;
  /** How many headers past the first LOG_HEADER_CAP were not kept; absent when none were cut. */
  headersCut?: number;
  /** The body as UTF-8 text, cut at LOG_BODY_BYTES. */
  body: string;
  bodyTruncated: boolean;
  /** The bin whose page made the call (`fumugi/3`) as its X-Snippetkit-Bin header claimed it (shared/bin-claim.ts), if it did. */
  bin?: string;
  /** The callbacks the answer sent, in the record's order; filled in as each ends. */
  callbacks?: CallbackResult[];
};

/** What a save of the journal takes from a log: its own requests, and how many more overflowed. */
export type Unsaved = { entries: LoggedRequest[]; skipped: number };

/**
 * Per-endpoint counters: they outlive a replace, go with a delete, and are saved to the data file
 * in batches (../engines/stats-journal.ts). Every request that moves `hits` or `sequence` is also logged, and
 * logging it is what marks the endpoint for the next batch.
 */
export type EndpointStats = {
  hits: number;
  /** How many requests took a turn of `pick: "sequence"`; the next one takes `responses[sequence % length]`. */
  sequence: number;
  requests: RequestLog;
};

/**
 * A ring of the last `capacity` requests; `newestFirst()` copies them out. Requests are numbered
 * from 1 per endpoint (never reused, not even after a clear), which is how the budget tells them
 * apart. The ring also holds requests other instances served (`addShared`); what the journal saves
 * is `unsaved`, this instance's own requests only. The first request after a save calls `changed`,
 * once, so the serving path pays a flag test per request and the journal a push per endpoint per batch. Entries loaded from the
 * file stay JSON text until first read: a string is one object to the garbage collector where a
 * parsed entry is a dozen, which made start-up with a million saved entries GC-bound. Every entry
 * is charged to the shared `budget`, which may evict the oldest (budget.ts).
 */
export class RequestLog implements BudgetedLog {
  private ring: (LoggedRequest | string | undefined)[] = [];
  /** The bytes each entry was charged, at the same index. */
  private bytes: number[] = [];
  /** Where the oldest entry is. */
  private start = 0;
  size = 0;
  /** The number of the newest request. */
  count = 0;
  /**
   * This instance's requests not yet in the store that the ring still holds, oldest first: those from
   * `unsavedFrom` on. In a flood each request pushes one out, and shifting a full log's worth off the
   * front was the dearest step of serving one (a third of the endpoint server's own CPU).
   */
  private unsaved: (LoggedRequest | undefined)[] = [];
  private unsavedFrom = 0;
  /** Requests that left the ring unsaved (overwritten in a flood, or evicted by the budget). */
  skipped = 0;
  /** Moves on each clear, so a failed save does not bring back entries cleared meanwhile. */
  clears = 0;
  /** When the endpoint was last called; a clear keeps it. */
  lastCall: string | null = null;
  private marked = false;
  /** Entries handed to a save under way: one that leaves the ring stays charged until the save ends. */
  private saving = new Set<LoggedRequest>();
  /** What those that left meanwhile were charged, and how many they are. */
  private held = { bytes: 0, entries: 0 };

  constructor(
    readonly capacity: number,
    private readonly budget: LogBudget,
    private readonly changed: () => void = () => {},
  ) {}

  /** Logs `entry`, its headers cut to LOG_HEADER_CAP first (entry.headers is replaced then). */
  add(entry: LoggedRequest): void {
    this.push(entry, keptCost(entry));
    this.lastCall = entry.time;
    this.unsaved.push(entry);
    this.mark();
  }

  /** A request another instance served: shown here, saved there. */
  addShared(entry: LoggedRequest): void {
    this.push(entry, keptCost(entry));
    if (this.lastCall === null || entry.time > this.lastCall) this.lastCall = entry.time;
  }

  /**
   * Hands the journal what is to be saved, and forgets it; call saved() once the save has ended.
   * Until then the batch (and its JSON text) holds every entry in it, so an entry evicted meanwhile
   * still costs memory: it stays charged, and a flood evicts others in its place.
   */
  takeUnsaved(): Unsaved {
    const taken = { entries: this.pending(), skipped: this.skipped };
    for (const entry of taken.entries) this.saving.add(entry);
    this.setUnsaved([]);
    this.skipped = 0;
    return taken;
  }

  /** The save of what takeUnsaved() handed over ended (either way): entries that left the ring meanwhile are given back. */
  saved(): void {
    this.saving.clear();
    if (this.held.entries > 0) this.budget.release(this.held.bytes, this.held.entries);
    this.held = { bytes: 0, entries: 0 };
  }

  /**
   * A save of `taken` failed: what the ring still holds of it goes back before what came since,
   * unless the log was cleared meanwhile. Rare, so a set of the ring is fine.
   */
  untake(taken: Unsaved, clears: number): void {
    if (clears !== this.clears) return;
    const held = new Set(this.ring);
    const back = taken.entries.filter((entry) => held.has(entry));
    this.setUnsaved(back.concat(this.pending()));
    this.skipped += taken.skipped + taken.entries.length - back.length;
  }

  /** Tells the journal once that this log has something to save (again, after a failed save). */
  mark(): void {
    if (this.marked) return;
    this.marked = true;
    this.changed();
  }

  /** Lets the next request mark the log again; the journal calls it as it takes a batch. */
  unmark(): void {
    this.marked = false;
  }

  /** Starts from saved entries (oldest first) without marking the log changed, unless the budget evicts. */
  restore(saved: SavedLog): void {
    const entries = saved.entries.slice(-this.capacity);
    this.count = saved.count - entries.length;
    this.lastCall = saved.lastCall;
    for (const entry of entries) this.push(entry, savedCost(entry));
  }

  /**
   * Puts what the store holds (every instance's saved requests, oldest first) in place of the ring,
   * then this instance's own requests not saved yet; numbering goes on.
   */
  reload(saved: SavedLog): void {
    const unsaved = this.pending();
    this.setUnsaved([]); // they stay unsaved as they leave the ring here
    while (this.size > 0) this.dropOldest();
    this.setUnsaved(unsaved);
    if (saved.lastCall !== null && (this.lastCall === null || saved.lastCall > this.lastCall)) this.lastCall = saved.lastCall;
    const room = Math.max(0, this.capacity - unsaved.length);
    const kept = saved.entries.slice(Math.max(0, saved.entries.length - room));
    for (const entry of kept) this.push(entry, savedCost(entry));
    for (const entry of unsaved) this.push(entry, keptCost(entry));
  }

  /** Forgets every entry (they are saved as cleared); numbering and lastCall go on. */
  clear(): void {
    while (this.size > 0) this.dropOldest();
    this.setUnsaved([]);
    this.skipped = 0;
    this.clears++;
  }

  evict(seq: number): void {
    if (this.size === 0 || seq !== this.count - this.size + 1) return;
    this.dropOldest();
    // The next batch cuts the saved log to what is left.
    this.mark();
  }

  newestFirst(limit = this.size): LoggedRequest[] {
    const out: LoggedRequest[] = [];
    for (let i = this.size - 1; i >= Math.max(0, this.size - limit); i--) {
      const at = (this.start + i) % this.capacity;
      let entry = this.ring[at]!;
      if (typeof entry === 'string') this.ring[at] = entry = JSON.parse(entry) as LoggedRequest;
      out.push(entry);
    }
    return out;
  }

  /** The unsaved requests, oldest first. */
  private pending(): LoggedRequest[] {
    return this.unsaved.slice(this.unsavedFrom) as LoggedRequest[];
  }

  private setUnsaved(entries: LoggedRequest[]): void {
    this.unsaved = entries;
    this.unsavedFrom = 0;
  }

  private push(entry: LoggedRequest | string, bytes: number): void {
    if (this.size === this.capacity) this.dropOldest();
    const at = (this.start + this.size) % this.capacity;
    this.ring[at] = entry;
    this.bytes[at] = bytes;
    this.size++;
    this.count++;
    this.budget.charge(this, this.count, bytes);
  }

  private dropOldest(): void {
    // This instance's oldest unsaved request leaves unsaved: the journal saves what the ring holds.
    if (this.unsavedFrom < this.unsaved.length && this.ring[this.start] === this.unsaved[this.unsavedFrom]) {
      this.unsaved[this.unsavedFrom++] = undefined;
      this.skipped++;
      // Without a save (a failing data file) it would grow a slot a request; the live ones are at most a ring's worth.
      if (this.unsavedFrom >= this.capacity) this.setUnsaved(this.pending());
    }
    const leaving = this.ring[this.start]!;
    if (typeof leaving === 'object' && this.saving.has(leaving)) {
      this.held.bytes += this.bytes[this.start]!;
      this.held.entries++;
    } else this.budget.release(this.bytes[this.start]!);
    this.ring[this.start] = undefined;
    this.start = (this.start + 1) % this.capacity;
    this.size--;
  }
}

/** Fresh counters; `changed` as for RequestLog. */
export function newStats(capacity: number, budget: LogBudget, changed?: () => void): EndpointStats {
  return { hits: 0, sequence: 0, requests: new RequestLog(capacity, budget, changed) };
}

/** What the data file holds for one endpoint. */
export type SavedLog = {
  hits: number;
  sequence: number;
  lastCall: string | null;
  /** The number of the newest request. */
  count: number;
  /** Oldest first, as JSON text. */
  entries: string[];
};

/**
 * Reads a request body, keeping at most LOG_BODY_BYTES and draining the rest, then calls `done`.
 * A client that goes away mid-body never calls `done`.
 */
export function readLoggedBody(req: IncomingMessage, done: (body: string, truncated: boolean) => void): void {
  const chunks: Buffer[] = [];
  let kept = 0;
  let truncated = false;
  req.on('data', (chunk: Buffer) => {
    if (kept >= LOG_BODY_BYTES) {
      truncated = true;
      return;
    }
    const room = LOG_BODY_BYTES - kept;
    if (chunk.length > room) {
      truncated = true;
      chunk = chunk.subarray(0, room);
    }
    chunks.push(chunk);
    kept += chunk.length;
  });
  req.on('end', () => done(Buffer.concat(chunks, kept).toString('utf8'), truncated));
}

let isoMs = NaN;
let iso = '';

/**
 * Now as ISO text, made once per millisecond: a busy endpoint takes several requests a millisecond,
 * and toISOString() was the dearest step of logging one.
 */
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    iso = new Date(ms).toISOString();
  }
  return iso;
}

/** The client's address: with trustProxy the first X-Forwarded-For entry, as Koa's `ctx.ip` does. */
export function clientIp(req: IncomingMessage, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress;
}

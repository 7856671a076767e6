import { MemoryAccount } from '../../gates/memory-budget.js';

/** What the budget needs of a log: its numbering, and a way to drop its oldest entry. */
export type BudgetedLog = {
  /** The number of the newest entry. */
  readonly count: number;
  /** Entries held; they are numbered count - size + 1 to count. */
  readonly size: number;
  /** Drops the oldest entry when it is number `seq`; nothing otherwise (it is gone already). */
  evict(seq: number): void;
};

/**
 * The eviction order over every endpoint's request log, charging the accountant's `logs` account
 * (../../gates/memory-budget.ts) what each entry costs in memory. Each endpoint keeps at most
 * `--log-size` entries, but anyone may create endpoints and send 64 KiB bodies to each: past the
 * budget the oldest entries of all logs go first, whichever endpoint they belong to.
 */
export class LogBudget {
  private readonly account: MemoryAccount;
  private entries = 0;
  // Entries in the order they were charged; those already overwritten or cleared are skipped.
  private queue: { log: BudgetedLog; seq: number }[] = [];
  private head = 0;

  /** The account to charge, or a limit for an account of its own. */
  constructor(account: MemoryAccount | number) {
    this.account = typeof account === 'number' ? new MemoryAccount('logs', account) : account;
  }

  get limit(): number {
    return this.account.limit;
  }

  /** Bytes charged now. */
  get used(): number {
    return this.account.used;
  }

  /** Counts entry `seq` of `log`, then evicts the oldest entries until the logs fit. */
  charge(log: BudgetedLog, seq: number, bytes: number): void {
    this.account.charge(bytes);
    this.entries++;
    this.queue.push({ log, seq });
    this.evictOver();
  }

  private evictOver(): void {
    while (this.account.over && this.head < this.queue.length) {
      const oldest = this.queue[this.head++]!;
      oldest.log.evict(oldest.seq);
    }
    // Overwritten entries leave their places behind: drop those once they outnumber the live ones.
    if (this.queue.length - this.head > 2 * this.entries + 1024) {
      this.queue = this.queue.slice(this.head).filter(({ log, seq }) => seq > log.count - log.size);
      this.head = 0;
    }
  }

  /** An entry (or `entries` of them, `bytes` in all) left its log (overwritten, evicted or cleared). */
  release(bytes: number, entries = 1): void {
    this.account.release(bytes);
    this.entries -= entries;
  }
}

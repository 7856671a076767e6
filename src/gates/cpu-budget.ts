/**
 * The CPU gate (docs/security.md): one budget per request for its CPU-heavy work (a template's
 * rendering, `_like` matching), counted as time measured on the clock, not as steps guessed. Work
 * that runs on this thread checks the budget between its units (a helper call, an item); work that
 * runs on a worker thread is timed by it and stopped at the budget. Past it: CpuBudgetExceeded.
 *
 * Plumbing below every wing: it imports nothing of ours.
 */

/** The default of --max-request-cpu, in milliseconds. */
export const DEFAULT_MAX_REQUEST_CPU = 250;

/** A request's work went over its budget; `status` is the HTTP answer (503: the server declines the cost). */
export class CpuBudgetExceeded extends Error {
  override name = 'CpuBudgetExceeded';
  readonly status = 503;
  readonly expose = true;
  constructor(
    readonly limitMs: number,
    /** What went over, for the message: "the templates", "title_like". */
    readonly work: string,
  ) {
    super(`${work} went over the CPU budget of one request (${limitMs} ms, --max-request-cpu)`);
  }
}

/**
 * What one request may still spend. Time counts while the work runs: from `startCpuBudget` (or
 * `resume`) to `pause`, so a request that waits its turn for a worker is not charged for the wait.
 */
export class CpuBudget {
  private spent = 0;
  private since: number | undefined;

  constructor(readonly limitMs: number) {}

  /** Counts from now on (again). */
  resume(): void {
    this.since ??= performance.now();
  }

  /** Stops counting until the next resume(). */
  pause(): void {
    if (this.since === undefined) return;
    this.spent += performance.now() - this.since;
    this.since = undefined;
  }

  /** Milliseconds spent so far. */
  spentMs(): number {
    return this.spent + (this.since === undefined ? 0 : performance.now() - this.since);
  }

  /** Milliseconds left, 0 when none. */
  remainingMs(): number {
    return Math.max(0, this.limitMs - this.spentMs());
  }

  /** Throws CpuBudgetExceeded, naming `work`, once the budget is spent. Cheap: call it per unit of work. */
  check(work: string): void {
    if (this.spentMs() > this.limitMs) throw new CpuBudgetExceeded(this.limitMs, work);
  }
}

/** A budget of `limitMs` counting from now. */
export function startCpuBudget(limitMs: number = DEFAULT_MAX_REQUEST_CPU): CpuBudget {
  const budget = new CpuBudget(limitMs);
  budget.resume();
  return budget;
}

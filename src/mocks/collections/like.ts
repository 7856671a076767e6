/**
 * json-server's `_like` filters: a regular expression from the query, any case, run by RE2 (no
 * backtracking, so `(a+)+$` is cheap). What a pattern may cost is bounded twice: its program's size
 * is estimated from its text and refused before it is compiled, and the matching runs under the
 * request's CPU budget: inline when its worst case is small, else on a worker thread (like-pool.ts),
 * so no pattern holds up other requests.
 */
import { HttpError } from '../../http/errors.js';
import { CpuBudgetExceeded, type CpuBudget } from '../../gates/cpu-budget.js';
import { estimateProgramSize, MAX_LIKE, MAX_LIKE_PROGRAM } from './like-size.js';
import { runLikeJob, type LikeTask } from './like-pool.js';

export type { LikeTask } from './like-pool.js';

/** Refuses, before compiling, a pattern too long or whose program would be too big: a 400 naming the key. */
export function checkLike(key: string, pattern: string): void {
  if (pattern.length > MAX_LIKE) {
    throw new HttpError(400, `${key}: the pattern is longer than ${MAX_LIKE} characters`, key);
  }
  const size = estimateProgramSize(pattern);
  if (size > MAX_LIKE_PROGRAM) {
    const message = `${key}: the pattern would compile to about ${size} instructions; at most ${MAX_LIKE_PROGRAM}`;
    throw new HttpError(400, `${message} (use fewer or smaller repetition counts)`, key);
  }
}

/**
 * Instructions × characters a job may have at most to run on the event loop rather than a worker: at
 * the slowest RE2 seen (about 400 ns per instruction per character) 20 ms, well under the budget and
 * far under a cold worker's start (0.5 s and more on a loaded machine), which the usual small query
 * would otherwise wait for.
 */
const INLINE_WORK = 50_000;

function worstWork(tasks: LikeTask[]): number {
  let work = 0;
  for (const { patterns, texts } of tasks) {
    const size = patterns.reduce((sum, pattern) => sum + estimateProgramSize(pattern), 0);
    work += size * texts.reduce((sum, text) => sum + (text?.length ?? 0), 0);
  }
  return work;
}

/** The items that pass every `_like` task, in order; throws the refusal, or CpuBudgetExceeded past `budget`. */
export async function filterLike<T>(items: T[], tasks: LikeTask[], budget: CpuBudget): Promise<T[]> {
  // Sent even with no items, so a pattern that does not compile is a 400 whatever the data.
  if (tasks.length === 0) return items;
  const key = tasks[0]!.key;
  let reply;
  try {
    if (worstWork(tasks) <= INLINE_WORK) {
      const { run } = await import('./like-match.js');
      reply = run({ id: 0, limitMs: budget.remainingMs(), count: items.length, tasks });
    } else reply = await runLikeJob({ count: items.length, tasks }, budget, key);
  } catch (err) {
    if (err instanceof CpuBudgetExceeded) throw overBudget(err, key);
    throw err;
  }
  if ('refused' in reply) throw new HttpError(400, reply.refused.message, reply.refused.key);
  if ('over' in reply) throw overBudget(new CpuBudgetExceeded(budget.limitMs, reply.over), reply.over);
  return items.filter((_, i) => reply.passed[i] === 1);
}

/** The gate's refusal as the mock server answers it: a 503 naming the budget and the key. */
function overBudget(err: CpuBudgetExceeded, key: string): HttpError {
  return new HttpError(err.status, err.message, key);
}

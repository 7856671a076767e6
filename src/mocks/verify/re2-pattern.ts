import type { Options } from 'ajv';
import { RE2JS, RE2JSException } from 're2js';
import { CpuBudgetExceeded, type CpuBudget } from '../../gates/cpu-budget.js';
import { estimateProgramSize, MAX_LIKE, MAX_LIKE_PROGRAM } from '../collections/like-size.js';
import { HttpError } from '../../http/errors.js';
import { VERIFY_WORK } from './pattern.js';

type RegExpEngine = NonNullable<NonNullable<Options['code']>['regExp']>;

/**
 * Nanoseconds one RE2 match may cost per instruction per character of text: the slowest measured
 * on the idle 2-core machine was 45 (`a[ab]{60}$`, 64 instructions, over 64 KiB: 181 ms).
 */
const NS_PER_STEP = 50;

/**
 * The regular expressions of a `bodySchema` (`pattern`, `patternProperties`) for ajv's `code.regExp`:
 * RE2, which never backtracks, so `^(a+)+$` costs one pass over the text. A pattern is bounded as a
 * `_like` one is (at most 256 characters and 1,000 RE2 instructions, estimated before compiling),
 * a 400 naming it otherwise. One match cannot be interrupted: each checks `budget` first, and one
 * that could cost more than the budget has left (its program size times the text's length, at the
 * slowest rate measured) is not started.
 */
export function re2Patterns(budget: CpuBudget): RegExpEngine {
  const engine = (pattern: string) => {
    budget.check(VERIFY_WORK);
    const named = `bodySchema pattern ${JSON.stringify(pattern.length > 60 ? `${pattern.slice(0, 60)}…` : pattern)}`;
    if (pattern.length > MAX_LIKE) throw refused(`${named} is longer than ${MAX_LIKE} characters`);
    if (estimateProgramSize(pattern) > MAX_LIKE_PROGRAM) throw refused(`${named} compiles to over ${MAX_LIKE_PROGRAM} instructions`);
    let re: RE2JS;
    try {
      re = RE2JS.compile(pattern);
    } catch (err) {
      if (!(err instanceof RE2JSException)) throw err;
      throw refused(`${named} is not a pattern RE2 takes (no lookaround or backreferences): ${err.message}`);
    }
    const steps = re.programSize();
    if (steps > MAX_LIKE_PROGRAM) throw refused(`${named} compiles to ${steps} instructions; at most ${MAX_LIKE_PROGRAM}`);
    return {
      test(text: string): boolean {
        budget.check(VERIFY_WORK);
        if ((steps * text.length * NS_PER_STEP) / 1e6 > budget.remainingMs()) throw new CpuBudgetExceeded(budget.limitMs, VERIFY_WORK);
        return re.test(text);
      },
      // ajv keeps one compiled pattern per distinct text: this is the key it uses.
      toString: () => `/${pattern}/`,
    };
  };
  // Only ajv's standalone code (never generated here) would print this.
  engine.code = 'RE2JS.compile';
  return engine;
}

function refused(message: string): HttpError {
  return new HttpError(400, message, 'bodySchema');
}

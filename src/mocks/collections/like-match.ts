/**
 * Runs a `_like` job: each pattern compiled (refused if RE2 counts its program over the limit), then
 * matched item by item, the clock checked between items. On the worker thread (like-worker.ts) for
 * any job, and on the event loop for one whose worst case is small (like.ts).
 */
import { RE2JS, RE2JSException } from 're2js';
import type { LikeJob, LikeReply } from './like-pool.js';
import { MAX_LIKE_PROGRAM } from './like-size.js';

export function run(job: LikeJob): LikeReply {
  const started = performance.now();
  const { id, tasks, limitMs, count } = job;
  const compiled: RE2JS[][] = [];
  for (const { key, patterns } of tasks) {
    const list: RE2JS[] = [];
    for (const pattern of patterns) {
      let re: RE2JS;
      try {
        re = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
      } catch (err) {
        if (!(err instanceof RE2JSException)) throw err;
        return { id, refused: { key, message: `${key}: not a valid pattern (${err.message})` } };
      }
      // The size estimate before compiling is an upper bound; this is RE2's own count, in case it is not.
      if (re.programSize() > MAX_LIKE_PROGRAM) {
        const message = `${key}: the pattern compiles to ${re.programSize()} instructions; at most ${MAX_LIKE_PROGRAM}`;
        return { id, refused: { key, message } };
      }
      list.push(re);
    }
    compiled.push(list);
  }
  const passed = new Uint8Array(count).fill(1);
  for (const [t, { key, texts }] of tasks.entries()) {
    const res = compiled[t]!;
    for (let i = 0; i < count; i++) {
      if (!passed[i]) continue;
      if (performance.now() - started > limitMs) return { id, over: key };
      const text = texts[i];
      passed[i] = text !== null && text !== undefined && res.some((re) => re.test(text)) ? 1 : 0;
    }
  }
  return { id, passed };
}

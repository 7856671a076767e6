/**
 * The worker thread that runs `_like` patterns (like-pool.ts starts it): off the event loop, so a
 * costly match holds up no other request, and killable, as one RE2 match cannot be interrupted.
 * It checks its own clock between items and says when the request's budget is spent.
 */
import { parentPort } from 'node:worker_threads';
import { RE2JS, RE2JSException } from 're2js';
import type { LikeJob, LikeReply } from './like-pool.js';
import { MAX_LIKE_PROGRAM } from './like-size.js';

function run(job: LikeJob): LikeReply {
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

parentPort!.on('message', (job: LikeJob) => {
  parentPort!.postMessage(run(job));
});
// RE2 is loaded, and warmed up (a first match costs tens of milliseconds more): jobs are timed from here.
RE2JS.compile('w(ar)?m', RE2JS.CASE_INSENSITIVE).test('a warm up');
parentPort!.postMessage({ ready: true });

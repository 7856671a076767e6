/**
 * The worker thread that runs `_like` patterns (like-pool.ts starts it): off the event loop, so a
 * costly match holds up no other request, and killable, as one RE2 match cannot be interrupted.
 * It checks its own clock between items and says when the request's budget is spent.
 */
import { parentPort } from 'node:worker_threads';
import { RE2JS } from 're2js';
import type { LikeJob } from './like-pool.js';
import { run } from './like-match.js';

parentPort!.on('message', (job: LikeJob) => {
  parentPort!.postMessage(run(job));
});
// RE2 is loaded, and warmed up (a first match costs tens of milliseconds more): jobs are timed from here.
RE2JS.compile('w(ar)?m', RE2JS.CASE_INSENSITIVE).test('a warm up');
parentPort!.postMessage({ ready: true });

import type { ChildProcess } from 'node:child_process';

// Every snippetkit process a test started, so that none outlives its tests. A test that fails or times
// out never reaches its own stop(), and one whose `before` hook timed out may get its server after the
// `after` hook has run: either way the process would keep serving, and keep the test run alive, to the
// end. The root hooks (root-hooks.ts) stop what is left and name what a passing test leaked.
//
// A process started in a test may serve the rest of its `describe` block (stopped in its `after`
// hook), so it is left alone until a test outside that block begins; one started in a hook is looked at
// when the run ends.
type Entry = { owner: Mocha.Test | undefined; command: string };
const alive = new Map<ChildProcess, Entry>();
let current: Mocha.Test | undefined;

/** Remembers `child` until it exits. Called by the helpers that spawn the CLI. */
export function track(child: ChildProcess, command: string): void {
  alive.set(child, { owner: current, command });
  child.once('exit', () => alive.delete(child));
}

function within(test: Mocha.Test, suite: Mocha.Suite | undefined): boolean {
  for (let s: Mocha.Suite | undefined = test.parent; s; s = s.parent) if (s === suite) return true;
  return false;
}

/** Kills `children` (those asked to stop get their grace) and waits until they have exited. */
async function stop(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map((child) => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      if (!child.killed) child.kill('SIGKILL');
      return exited;
    }),
  );
}

/** Leaks found so far: a passing test's process that nobody asked to stop once its block was over. */
const leaks: string[] = [];
const leak = (entry: Entry) =>
  leaks.push(`${entry.owner ? `"${entry.owner.fullTitle()}"` : 'a hook'} left running: ${entry.command}`);

/** Before each test: stops what finished blocks left, and notes the leaks among them. */
export async function testStarting(test: Mocha.Test): Promise<void> {
  current = test;
  const done = [...alive].filter(([, entry]) => entry.owner && !within(test, entry.owner.parent));
  for (const [child, entry] of done) if (!child.killed && entry.owner?.state === 'passed') leak(entry);
  await stop(done.map(([child]) => child));
}

/** After each test: a test that failed never got to stop what it started, so that is stopped now. */
export async function testEnded(test: Mocha.Test): Promise<void> {
  current = undefined;
  if (test.state === 'passed') return;
  await stop([...alive].filter(([, entry]) => entry.owner === test).map(([child]) => child));
}

/** At the end of the run: stops everything left and gives the leaks found. */
export async function runEnded(): Promise<string[]> {
  for (const [child, entry] of alive) if (!child.killed && entry.owner?.state !== 'failed') leak(entry);
  await stop([...alive.keys()]);
  return leaks;
}

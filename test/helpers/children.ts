import type { ChildProcess } from 'node:child_process';

// Every snippetkit process a test started, so that none outlives its test. A test that fails or times
// out never reaches its own stop(), and one whose `before` hook timed out may get its server after the
// `after` hook has run: either way the process would keep serving, and keep the test run alive, to the
// end. The root hooks (root-hooks.ts) stop what is left: at the end of each test what the test started,
// at the end of the run what the suites' hooks started.
type Owner = 'test' | 'suite';
const alive = new Map<ChildProcess, { owner: Owner; command: string }>();
let inTest = false;

/** Remembers `child` until it exits. Called by the helpers that spawn the CLI. */
export function track(child: ChildProcess, command: string): void {
  alive.set(child, { owner: inTest ? 'test' : 'suite', command });
  child.once('exit', () => alive.delete(child));
}

export function testStarted(): void {
  inTest = true;
}

/**
 * Kills what is still running among the processes `owner` started and waits for them to exit.
 * Gives the commands of those nobody had asked to stop: a test that passed and left one is a leak.
 */
export async function stopLeftovers(owner: Owner): Promise<string[]> {
  if (owner === 'test') inTest = false;
  const left = [...alive].filter(([, entry]) => entry.owner === owner);
  const unasked = left.filter(([child]) => !child.killed).map(([, entry]) => entry.command);
  await Promise.all(
    left.map(([child]) => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      // A stop asked for already gets its usual grace; one never asked for is killed outright.
      if (!child.killed) child.kill('SIGKILL');
      return exited;
    }),
  );
  return unasked;
}

/**
 * How often a connection that only listens (PostgreSQL LISTEN, a Redis subscriber) is asked something.
 * Such a connection never fails when it goes away without a word (a NAT or firewall that forgot it, a
 * host gone): the instance would go on serving what it kept, stale, until TCP gave up hours later.
 * An unanswered question finds that out, and keeps such middle boxes from forgetting the connection.
 */
export const HEARTBEAT_MS = 5_000;

/** Calls `ask` every `everyMs`, never while its last answer is pending (undefined: nothing asked); returns the stop. */
export function keepAsking(everyMs: number, ask: () => Promise<unknown> | undefined): () => void {
  let pending: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (pending) return;
    pending = ask()?.finally(() => (pending = undefined));
  }, everyMs).unref();
  return () => clearInterval(timer);
}

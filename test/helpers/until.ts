/**
 * Waits for `condition` (state the code under test changes, e.g. a server's stream count after a
 * client leaves) by asking again on every turn of the event loop: no fixed sleep, and a generous
 * deadline for a loaded machine.
 */
export async function until(condition: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms: ${condition.toString()}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

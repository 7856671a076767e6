/**
 * The one backoff of every reconnection and re-read of a shared store: 100 ms before the first retry,
 * doubling to at most 2 s, so an instance finds a store that is back within about 2 s without
 * flooding one that is not.
 */
export function retryDelay(retries: number): number {
  return Math.min(100 * 2 ** retries, 2_000);
}

/**
 * Runs `attempt` until it resolves, waiting retryDelay between failures (each given to `failed`), for
 * as long as `going()` says: true once an attempt succeeded, false if it stopped first.
 */
export async function retrying(
  attempt: () => Promise<unknown>,
  going: () => boolean,
  failed: (err: unknown) => void = () => {},
): Promise<boolean> {
  for (let retries = 0; going(); retries++) {
    try {
      await attempt();
      return true;
    } catch (err) {
      failed(err);
      await new Promise((resolve) => setTimeout(resolve, retryDelay(retries)).unref());
    }
  }
  return false;
}

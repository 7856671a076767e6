/** Runs `task(i)` for i = 0..count-1, `concurrency` at a time, so a stream of requests is still going when a test acts. */
export async function inPool(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Calls `run` once calls have stopped for `ms`; `flush` runs a pending call at once. */
export function debounce(run: () => void, ms: number): { (): void; flush(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    run();
  };
  const call = () => {
    clearTimeout(timer);
    timer = setTimeout(fire, ms);
  };
  call.flush = () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      fire();
    }
  };
  return call;
}

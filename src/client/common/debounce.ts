/** Calls `run` once calls have stopped for `ms`; `flush` runs a pending call at once, `cancel` drops it. */
export function debounce(run: () => void, ms: number): { (): void; flush(): void; cancel(): void } {
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
  call.cancel = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  return call;
}

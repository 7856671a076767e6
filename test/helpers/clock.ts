/**
 * Returns once the clock has moved on a millisecond, so the next save gets a later time than the
 * last (saves within one millisecond share their ISO time). A wait for the clock itself, not a sleep.
 */
export function nextMillisecond(): void {
  const now = Date.now();
  while (Date.now() === now);
}

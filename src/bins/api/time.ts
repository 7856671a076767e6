// Made at the first listing, not as the module loads: building it loads ICU's data, about 20 ms of
// every bin server's start (a profile of serve-bins from spawn to its first answer).
let format: Intl.RelativeTimeFormat | undefined;
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "3 minutes ago", as JS Bin's pretty_last_updated says it. */
export function prettyTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') {
      if (Math.abs(seconds) < 10 && unit === 'second') return 'just now';
      format ??= new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
      return format.format(Math.trunc(seconds / size), unit);
    }
  }
  return iso;
}

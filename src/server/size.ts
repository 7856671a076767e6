const UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
const SIZE = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i;

/**
 * A size in bytes from a whole number of bytes or a text such as "1MB", "512kb" or "65536"
 * (units of 1024, as JS Bin's config and raw-body read them); undefined for anything else, so a
 * bad value is refused here instead of quietly meaning "no limit" further down.
 */
export function parseSize(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = SIZE.exec(value.trim());
  if (!match) return undefined;
  const bytes = Math.floor(Number(match[1]) * UNITS[(match[2] ?? '').toLowerCase()]!);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

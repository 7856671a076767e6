/** Headers that describe one connection, not the message (RFC 9110 7.6.1): never passed on, nor stored. */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** `headers` without hop-by-hop ones, those named in `Connection`, and the names in `drop` (lower case). */
export function endToEnd<T>(headers: Record<string, T | undefined>, drop: readonly string[] = []): Record<string, T> {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  const out: Record<string, T> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.includes(name) || drop.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

/** Why an upstream request failed, as the client is told: 502 when it could not answer, 504 when too slow. */
export type UpstreamFailure = { status: 502 | 504; cause: string };

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** Sorts a socket or TLS error into the answer's status and a short cause naming what went wrong. */
export function upstreamFailure(err: Error & { code?: string }): UpstreamFailure {
  const code = err.code ?? '';
  if (TIMEOUT_CODES.has(code)) return { status: 504, cause: `timed out: ${err.message}` };
  if (code === 'ECONNREFUSED') return { status: 502, cause: 'connection refused (ECONNREFUSED)' };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { status: 502, cause: `host not found (${code})` };
  if (code === 'ECONNRESET') return { status: 502, cause: 'connection reset (ECONNRESET)' };
  if (isTlsError(err)) return { status: 502, cause: `TLS failure: ${err.message}` };
  return { status: 502, cause: code ? `${err.message} (${code})` : err.message };
}

function isTlsError(err: Error & { code?: string }): boolean {
  const code = err.code ?? '';
  return code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code === 'EPROTO' || /certificate|ssl|tls/i.test(
    `${code} ${err.message}`,
  );
}

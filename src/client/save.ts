import type { Panels } from '../shared/assemble.js';
import type { ProcessorChoice } from '../shared/processors.js';

export type SaveResult = { ok: true; bin: string; rev: number } | { ok: false; status: number; error: string };

/**
 * Saves through the REST API: a new bin when `bin` is null, else a new revision of it. The key, when
 * there is one, goes in the Authorization header as JS Bin clients send it, never in the URL. All three
 * processors are sent, so a panel set back to its own language overrides the previous revision's choice.
 */
export async function postSave(
  root: URL,
  bin: string | null,
  panels: Panels,
  processors: ProcessorChoice,
  key: string | null,
): Promise<SaveResult> {
  const url = new URL(bin === null ? 'api/save' : `api/${encodeURIComponent(bin)}/save`, root);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: key ? { Authorization: `token ${key}` } : {},
      body: new URLSearchParams({ ...panels, settings: JSON.stringify({ processors }) }),
    });
  } catch {
    return { ok: false, status: 0, error: 'the server could not be reached' };
  }
  const body = (await res.json().catch(() => ({}))) as { url?: unknown; snapshot?: unknown; error?: unknown };
  if (res.ok && typeof body.url === 'string' && typeof body.snapshot === 'number') {
    return { ok: true, bin: body.url, rev: body.snapshot };
  }
  const error = typeof body.error === 'string' ? body.error : `the server answered ${res.status}`;
  return { ok: false, status: res.status, error };
}

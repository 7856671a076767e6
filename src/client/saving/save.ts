import type { Panels } from '../../shared/assemble.js';
import type { ProcessorChoice } from '../../shared/processors.js';
import type { Refusal } from './key-dialog.js';
import { mocksField, savingWithMocks } from './with-mocks.js';

export { wireWithMocks } from './with-mocks.js';

/** `mocks`: with the box ticked, how many endpoints went with the revision (0: the code calls none). */
export type SaveResult = { ok: true; bin: string; rev: number; mocks?: number } | Refusal;

/**
 * Sends `panels` to `url` as JS Bin clients send a save: a form body, the processors in `settings`, the
 * key, when there is one, in the Authorization header, never in the URL. All three processors are sent,
 * so a panel set back to its own language overrides the previous revision's choice.
 */
export async function sendPanels(
  url: URL,
  method: 'POST' | 'PUT',
  panels: Panels,
  processors: ProcessorChoice,
  key: string | null,
  more: Record<string, string> = {},
): Promise<{ ok: true; body: Record<string, unknown> } | Refusal> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: key ? { Authorization: `token ${key}` } : {},
      body: new URLSearchParams({ ...panels, settings: JSON.stringify({ processors }), ...more }),
    });
  } catch {
    return { ok: false, status: 0, error: 'the server could not be reached' };
  }
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.ok) return { ok: true, body };
  const error = typeof body.error === 'string' ? body.error : `the server answered ${res.status}`;
  return { ok: false, status: res.status, error };
}

/**
 * Saves through the REST API: a new bin when `bin` is null, else a new revision of it; with the mocks the
 * code calls when the Save region's "with mocks" box is ticked (with-mocks.ts).
 */
export async function postSave(
  root: URL,
  bin: string | null,
  panels: Panels,
  processors: ProcessorChoice,
  key: string | null,
): Promise<SaveResult> {
  const url = new URL(bin === null ? 'api/save' : `api/${encodeURIComponent(bin)}/save`, root);
  const more: Record<string, string> = {};
  let mocks: number | undefined;
  if (savingWithMocks()) {
    try {
      const records = await mocksField(panels);
      mocks = records.length;
      if (records.length > 0) more.mocks = JSON.stringify(records);
    } catch (err) {
      return { ok: false, status: 0, error: `its mocks could not be read (${(err as Error).message})` };
    }
  }
  const sent = await sendPanels(url, 'POST', panels, processors, key, more);
  if (!sent.ok) return sent;
  const { url: saved, snapshot } = sent.body;
  if (typeof saved === 'string' && typeof snapshot === 'number') {
    return { ok: true, bin: saved, rev: snapshot, ...(mocks !== undefined && { mocks }) };
  }
  return { ok: false, status: 200, error: 'the server answered 200' };
}

import type { Panels } from '../shared/assemble.js';
import type { ProcessorChoice } from '../shared/processors.js';
import { askForKey, openSession } from './key-dialog.js';
import { say } from './status.js';
import { apiKey } from './storage.js';

export type TemplateOptions = {
  root: URL;
  /** What is on screen now: the panels and their preprocessors. */
  read(): { panels: Panels; processors: ProcessorChoice };
};

type PutResult = { ok: true } | { ok: false; status: number; error: string };

/**
 * Sends `panels` as the server's template (PUT /api/template), as a save is sent: a form body with the
 * processors in `settings`, the key in the Authorization header.
 */
async function putTemplate(root: URL, panels: Panels, processors: ProcessorChoice, key: string | null): Promise<PutResult> {
  let res: Response;
  try {
    res = await fetch(new URL('api/template', root), {
      method: 'PUT',
      headers: key ? { Authorization: `token ${key}` } : {},
      body: new URLSearchParams({ ...panels, settings: JSON.stringify({ processors }) }),
    });
  } catch {
    return { ok: false, status: 0, error: 'the server could not be reached' };
  }
  if (res.ok) return { ok: true };
  const body = (await res.json().catch(() => ({}))) as { error?: unknown };
  return { ok: false, status: res.status, error: typeof body.error === 'string' ? body.error : `the server answered ${res.status}` };
}

/**
 * The toolbar's "Save as template" button: what is on screen becomes what "New" (the server's root)
 * starts from. A missing or wrong key is asked for in the key dialog, as Save asks.
 */
export function wireTemplateButton({ root, read }: TemplateOptions): void {
  const button = document.getElementById('save-template') as HTMLButtonElement;
  button.addEventListener('click', async () => {
    if (button.disabled) return;
    button.disabled = true;
    const { panels, processors } = read();
    let key = apiKey.get();
    try {
      for (;;) {
        const result = await putTemplate(root, panels, processors, key);
        if (result.ok) {
          if (key && key !== apiKey.get()) openSession(root, key);
          if (key) apiKey.set(key);
          return say('Saved as the template: New starts from it.');
        }
        // 403 is the API's answer for a missing or wrong key: ask (once per attempt), forget a wrong one.
        if (result.status !== 403) return say(`Template not saved: ${result.error}.`, 'error');
        if (key) apiKey.set(null);
        key = (await askForKey(result.error)) ?? null;
        if (!key) return say(`Template not saved: ${result.error}.`, 'error');
      }
    } finally {
      button.disabled = false;
    }
  });
}

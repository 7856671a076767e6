import { apiKey } from '../common/storage.js';

/** Asks for the API key in `#key-dialog`; undefined when the user cancels. */
export function askForKey(reason: string): Promise<string | undefined> {
  const dialog = document.getElementById('key-dialog') as HTMLDialogElement;
  const input = document.getElementById('key-input') as HTMLInputElement;
  document.getElementById('key-reason')!.textContent = reason;
  input.value = '';
  // returnValue outlives a close: Escape would otherwise repeat the last answer.
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener(
      'close',
      () => {
        const key = input.value.trim();
        resolve(dialog.returnValue === 'ok' && key !== '' ? key : undefined);
      },
      { once: true },
    );
  });
}

/**
 * Hands an accepted key to the server once, for a session cookie (HttpOnly: this page never sees it),
 * so the pages of a server whose reads need the key (output, share links, reloads) open in this browser.
 */
export function openSession(root: URL, key: string): void {
  const init = { method: 'POST', headers: { Authorization: `token ${key}` } };
  void fetch(new URL('api/session', root), init).catch(() => {});
}

/** A write the API refused (403 when the key is missing or wrong), or that never reached it (status 0). */
export type Refusal = { ok: false; status: number; error: string };

/**
 * Runs a write with this browser's key. A 403 is the API's answer for a missing or wrong key: a wrong
 * one is forgotten and the key dialog asks (once per attempt); a key that worked is kept, with a
 * session for the pages. Resolves with the last answer: the write's, or the refusal the user cancelled.
 */
export async function withKey<T extends { ok: true }>(root: URL, write: (key: string | null) => Promise<T | Refusal>): Promise<T | Refusal> {
  let key = apiKey.get();
  for (;;) {
    const result = await write(key);
    if (result.ok) {
      if (key && key !== apiKey.get()) openSession(root, key);
      if (key) apiKey.set(key);
      return result;
    }
    if (result.status !== 403) return result;
    if (key) apiKey.set(null);
    key = (await askForKey(result.error)) ?? null;
    if (!key) return result;
  }
}

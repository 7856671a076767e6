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

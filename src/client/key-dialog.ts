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

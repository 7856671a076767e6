/** Shows the output and edit URLs of a saved revision in the `#share` box. */
export function showShare(outputUrl: string, editUrl: string): void {
  (document.getElementById('share-output') as HTMLInputElement).value = outputUrl;
  (document.getElementById('share-edit') as HTMLInputElement).value = editUrl;
  document.getElementById('share')!.hidden = false;
}

/** Buttons with `data-copy="<input id>"` copy that input's value. */
export function wireCopyButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
    button.addEventListener('click', async () => {
      const input = document.getElementById(button.dataset.copy!) as HTMLInputElement;
      const copied = await copy(input);
      button.textContent = copied ? 'Copied' : 'Select and copy';
      setTimeout(() => (button.textContent = 'Copy'), 1500);
    });
  }
}

async function copy(input: HTMLInputElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    // No clipboard API over plain http from another machine (not a secure context): the old way.
    input.select();
    return document.execCommand('copy');
  }
}

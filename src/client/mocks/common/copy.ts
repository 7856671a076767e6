/**
 * Copies text to the clipboard. navigator.clipboard exists only in secure contexts, and a mock
 * server reached at http://some-host:16540 is not one: there the older execCommand path works.
 */
export async function copyText(text: string): Promise<boolean> {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // denied: try the older way
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    return document.execCommand('copy');
  } finally {
    area.remove();
  }
}

/** Makes `button` copy what `text()` returns, saying "Copied" (or that it could not) for a moment. */
export function copyButton(button: HTMLButtonElement, text: () => string): void {
  const label = button.textContent ?? 'Copy';
  let timer: number | undefined;
  button.addEventListener('click', async () => {
    const copied = await copyText(text());
    button.textContent = copied ? 'Copied' : 'Copy failed';
    clearTimeout(timer);
    timer = window.setTimeout(() => (button.textContent = label), 1500);
  });
}

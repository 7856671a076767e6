export type StatusAction = { label: string; run(): void };

/** One line under the toolbar telling what happened: saved, restored, or what went wrong. */
export function say(text: string, kind: 'info' | 'error' = 'info', action?: StatusAction): void {
  const status = document.getElementById('status')!;
  status.className = kind;
  status.replaceChildren(text);
  if (action) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'small';
    button.textContent = action.label;
    button.addEventListener('click', () => {
      action.run();
      status.hidden = true;
    });
    status.append(' ', button);
  }
  status.hidden = false;
}

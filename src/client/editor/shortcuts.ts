import { EDITOR_PANES } from '../../shared/panel-list.js';

/** Macs name the modifier ⌘ (Meta); everything else Ctrl. */
const mac = /Mac|iPhone|iPad/.test(navigator.platform);

/** Keys typed into a field or an editor are text, not shortcuts. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const field = 'input:not([type="checkbox"]):not([type="radio"]):not([type="button"]), textarea, select';
  return target.isContentEditable || target.closest(`${field}, .cm-editor`) !== null;
}

/**
 * JS Bin's pane shortcuts (Ctrl/Cmd+1…5 press the pane toggles, and 6 the Mocks pane's, so storage and aria-pressed follow) and
 * the `#shortcuts-dialog` overlay that lists every shortcut, opened by "?" or the toolbar's button.
 * Modifier names are the platform's (⌘ on a Mac) in the overlay and the buttons' titles.
 */
export function wireShortcuts(): void {
  const dialog = document.getElementById('shortcuts-dialog') as HTMLDialogElement;
  if (mac) {
    for (const key of document.querySelectorAll('kbd.mod')) key.textContent = '⌘';
    for (const titled of document.querySelectorAll<HTMLElement>('[title*="Ctrl+"]')) {
      titled.title = titled.title.replaceAll('Ctrl+', '⌘');
    }
  }
  // Ctrl/Cmd+1…5 press these, in JS Bin's order; 6 is ours, the Mocks pane.
  const toggles = EDITOR_PANES.map((name) => document.querySelector<HTMLButtonElement>(`button[data-toggle="${name}"]`)!);
  toggles.forEach((button, index) => button.setAttribute('aria-keyshortcuts', `${mac ? 'Meta' : 'Control'}+${index + 1}`));
  const open = () => {
    if (!document.querySelector('dialog[open]')) dialog.showModal();
  };
  document.getElementById('shortcuts')!.addEventListener('click', open);

  // Capture phase, so an editor holding the focus sees none of these.
  addEventListener(
    'keydown',
    (event) => {
      const modified = event.ctrlKey || event.metaKey;
      // The key's place on the keyboard: layouts such as AZERTY need Shift for the digits themselves.
      const digit = /^Digit([1-6])$/.exec(event.code)?.[1];
      if (modified && !event.altKey && !event.shiftKey && digit) {
        event.preventDefault();
        const button = toggles[Number(digit) - 1]!;
        const pane = document.querySelector<HTMLElement>(`.pane[data-pane="${button.dataset.toggle}"]`)!;
        const hadFocus = pane.contains(document.activeElement);
        button.click();
        // The focus would be lost with its hidden pane: it goes to the pane's toggle instead.
        if (hadFocus && pane.hidden) button.focus();
      } else if (event.key === '?' && !modified && !event.altKey && !typing(event.target)) {
        event.preventDefault();
        open();
      }
    },
    true,
  );
}

import { el } from '../common/dom.js';

const FOCUSABLE = 'input, select, textarea, button, [contenteditable="true"]';

const visible = (element: Element) => element.checkVisibility();

/**
 * Asks whoever folds `element` away (a closed response) to show it: a `reveal-field` event bubbles
 * up from it. True when it is visible then.
 */
const revealed = (element: Element) => {
  element.dispatchEvent(new Event('reveal-field', { bubbles: true }));
  return visible(element);
};

// The last part of a field path: `.query` or `[1]`.
const LAST_PART = /(\.[^.[\]]+|\[\d+\])$/;
let notes = 0;

/**
 * The visible element that stands for `field` (`responses[1].when.query.role`): the closest
 * `data-field` match, dropping the last part until one is found (`responses[1].when.query`, ...).
 */
function target(root: HTMLElement, field: string): HTMLElement | undefined {
  const marked = [...root.querySelectorAll<HTMLElement>('[data-field]')];
  for (let path = field; ; ) {
    const found = marked.find((element) => element.dataset.field === path && (visible(element) || revealed(element)));
    if (found) return found;
    const shorter = path.replace(LAST_PART, '');
    if (shorter === path || shorter === '') return undefined;
    path = shorter;
  }
}

/** Removes every message and mark `showFieldError` left in `root`. */
export function clearFieldErrors(root: HTMLElement): void {
  for (const message of root.querySelectorAll('.field-error')) message.remove();
  for (const marked of root.querySelectorAll('[aria-invalid]')) {
    marked.removeAttribute('aria-invalid');
    marked.removeAttribute('aria-describedby');
  }
}

/**
 * Shows `message` right after the control standing for `field`, marks it invalid, describes it by
 * the message and moves focus there (the user pressed Save at the bottom; the field may be far up).
 * False when nothing on the form stands for that field.
 */
export function showFieldError(root: HTMLElement, field: string, message: string): boolean {
  const found = target(root, field);
  if (!found) return false;
  const control = found.matches(FOCUSABLE)
    ? found
    : [...found.querySelectorAll<HTMLElement>(FOCUSABLE)].find(visible) ?? found;
  const note = el('p', { class: 'field-error error', id: `field-error-${++notes}` }, message);
  found.after(note);
  for (const marked of new Set([found, control])) {
    marked.setAttribute('aria-invalid', 'true');
    marked.setAttribute('aria-describedby', note.id);
  }
  control.focus();
  return true;
}

import { layout } from './storage.js';

/**
 * The HTML/CSS/JavaScript/Console/Output buttons show and hide their panes; the choice is remembered.
 * `onChange` runs once the panes shown have changed (and at start).
 */
export function wirePaneToggles(onChange: () => void): void {
  const hidden = new Set(layout.hidden());
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-toggle]')) {
    const name = button.dataset.toggle!;
    const pane = document.querySelector<HTMLElement>(`.pane[data-pane="${name}"]`)!;
    const apply = () => {
      pane.hidden = hidden.has(name);
      button.setAttribute('aria-pressed', String(!pane.hidden));
    };
    apply();
    button.addEventListener('click', () => {
      if (hidden.has(name)) hidden.delete(name);
      else hidden.add(name);
      layout.setHidden([...hidden]);
      apply();
      onChange();
    });
  }
  onChange();
}

import { PANES, panesFromQuery } from '../../shared/panel-list.js';
import { layout } from '../common/storage.js';

/**
 * The HTML/CSS/JavaScript/Console/Output buttons show and hide their panes; the choice is remembered.
 * A panel link (`/abc/edit?html,js,output`, `/?css,output`) shows exactly the panes it names for this
 * page view without touching the remembered layout; once the user toggles a pane, the layout on screen
 * is what they chose, and it is remembered as a toggle always is. A query naming no pane changes nothing.
 * `onChange` runs once the panes shown have changed (and at start).
 */
export function wirePaneToggles(onChange: () => void): void {
  const linked = panesFromQuery(location.search);
  const hidden = new Set<string>(linked ? PANES.filter((pane) => !linked.includes(pane)) : layout.hidden());
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

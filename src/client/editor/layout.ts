import { EDITOR_PANES, editorPanesFromQuery } from '../../shared/panel-list.js';
import { layout } from '../common/storage.js';

/**
 * Panes hidden until asked for: a layout kept before they existed does not name them, so the kept list
 * names such a pane `+mocks` while it is shown, and a list without that keeps it hidden.
 */
const OPT_IN: readonly string[] = ['mocks'];

/** The panes hidden, from the kept list. */
function keptHidden(): Set<string> {
  const kept = layout.hidden();
  const hidden = kept.filter((name) => !name.startsWith('+') && !OPT_IN.includes(name));
  return new Set([...hidden, ...OPT_IN.filter((name) => !kept.includes(`+${name}`))]);
}

/** The kept list for `hidden`: the panes hidden, and the opt-in panes shown (`+mocks`). */
function toKeep(hidden: Set<string>): string[] {
  const shown = OPT_IN.filter((name) => !hidden.has(name)).map((name) => `+${name}`);
  return [...[...hidden].filter((name) => !OPT_IN.includes(name)), ...shown];
}

/**
 * The HTML/CSS/JavaScript/Console/Output/Mocks buttons show and hide their panes; the choice is remembered
 * (Mocks starts hidden). A panel link (`/abc/edit?html,js,output`, `/?css,output`, `?js,mocks`) shows exactly
 * the panes it names for this page view without touching the remembered layout; once the user toggles a
 * pane, the layout on screen is what they chose, and it is remembered as a toggle always is. A query naming
 * no pane changes nothing. `onChange` runs once the panes shown have changed (and at start).
 */
export function wirePaneToggles(onChange: () => void): void {
  const linked = editorPanesFromQuery(location.search);
  const hidden = linked ? new Set<string>(EDITOR_PANES.filter((pane) => !linked.includes(pane))) : keptHidden();
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
      layout.setHidden(toKeep(hidden));
      apply();
      onChange();
    });
  }
  onChange();
}

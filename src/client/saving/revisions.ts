import type { RevisionEntry } from '../../shared/editor-data.js';

export type RevisionMenu = {
  /** Shows `bin`'s revisions with `current` selected; after a save, `added` joins the list. */
  update(bin: string, current: number, added?: RevisionEntry): void;
};

// Short date and time, so the menu leaves the toolbar room for its buttons.
const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });

/** The `#revisions` menu; choosing a revision opens it in the editor. */
export function createRevisionMenu(root: URL, bin: string | null, entries: RevisionEntry[], current: number | null): RevisionMenu {
  const select = document.getElementById('revisions') as HTMLSelectElement;
  const label = select.closest('label')!;
  let list = [...entries];
  let shown = bin;

  select.addEventListener('change', () => {
    if (shown !== null) location.assign(new URL(`${shown}/${select.value}/edit`, root));
  });

  function render(selected: number | null): void {
    select.replaceChildren(
      ...list.map(({ rev, created }) => {
        const option = new Option(`${rev} · ${when.format(new Date(created))}`, String(rev));
        option.selected = rev === selected;
        return option;
      }),
    );
    label.hidden = list.length === 0;
  }
  render(current);

  return {
    update(nextBin, rev, added) {
      if (nextBin !== shown) list = [];
      shown = nextBin;
      if (added && !list.some((entry) => entry.rev === added.rev)) list = [added, ...list].sort((a, b) => b.rev - a.rev);
      render(rev);
    },
  };
}

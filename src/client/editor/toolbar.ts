import { placeMenu } from '../common/place-menu.js';

/**
 * Keeps the toolbar on one row with Save at its right end: while the row is short of room, the controls
 * marked `data-fold` go into the More menu, lowest number first (the least used), and come back as it
 * grows. With nothing left to fold (a phone), the pane toggles wrap instead (`.crowded`).
 */
export function wireToolbar(): void {
  const toolbar = document.querySelector<HTMLElement>('.toolbar')!;
  const end = toolbar.querySelector<HTMLElement>('.toolbar-end')!;
  const more = document.getElementById('more') as HTMLButtonElement;
  const menu = document.getElementById('more-menu')!;
  const inOrder = [...end.querySelectorAll<HTMLElement>('[data-fold]')];
  const byUse = [...inOrder].sort((a, b) => Number(a.dataset.fold) - Number(b.dataset.fold));
  const short = () => toolbar.scrollWidth > toolbar.clientWidth;

  // Fitting moves elements, which the observer below would see: it looks away meanwhile.
  const observer = new MutationObserver(() => fit());
  const watch = () => {
    for (const root of [end, menu]) observer.observe(root, { subtree: true, childList: true, characterData: true, attributeFilter: ['hidden'] });
  };

  function fit(): void {
    observer.disconnect();
    const focused = document.activeElement;
    toolbar.classList.remove('crowded');
    more.hidden = true;
    end.prepend(...inOrder);
    for (const control of byUse) {
      if (!short()) break;
      if (control.hidden) continue; // takes no room where it is
      more.hidden = false;
      menu.append(control);
    }
    // The menu lists them in the toolbar's order, whatever order they folded in.
    menu.append(...inOrder.filter((control) => control.parentElement === menu));
    if (short()) toolbar.classList.add('crowded');
    if (more.hidden && menu.matches(':popover-open')) menu.hidePopover();
    if (focused instanceof HTMLElement && focused !== document.activeElement && !focused.closest('[hidden]')) focused.focus();
    observer.takeRecords();
    watch();
  }

  menu.addEventListener('toggle', (event) => {
    if ((event as ToggleEvent).newState !== 'open') return;
    placeMenu(menu, more, 'end');
    menu.querySelector<HTMLElement>('button:not([hidden]), a, select')?.focus();
  });
  // A pick from the menu closes it (a select stays open until it is changed).
  menu.addEventListener('click', (event) => {
    if ((event.target as HTMLElement).closest('button, a')) menu.hidePopover();
  });
  addEventListener('resize', fit);
  fit();
}

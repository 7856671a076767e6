/**
 * Places a popover menu (in the top layer, so `position: fixed` by the browser) under `anchor`, or above it
 * when there is more room there, and always inside the viewport: its left edge slides left as far as needed,
 * and its height is capped by the room on the side it opens to (its CSS scrolls the rest).
 */
export function placeMenu(menu: HTMLElement, anchor: HTMLElement, align: 'start' | 'end' = 'start'): void {
  const MARGIN = 4;
  const box = anchor.getBoundingClientRect();
  const below = innerHeight - box.bottom - 2 - MARGIN;
  const above = box.top - 2 - MARGIN;
  const downwards = below >= Math.min(menu.scrollHeight, 240) || below >= above;
  menu.style.maxHeight = `${Math.max(80, downwards ? below : above)}px`;
  const width = menu.offsetWidth;
  const wanted = align === 'end' ? box.right - width : box.left;
  menu.style.left = `${Math.max(MARGIN, Math.min(wanted, innerWidth - width - MARGIN))}px`;
  if (downwards) {
    menu.style.top = `${box.bottom + 2}px`;
    menu.style.bottom = '';
  } else {
    menu.style.top = '';
    menu.style.bottom = `${innerHeight - box.top + 2}px`;
  }
}

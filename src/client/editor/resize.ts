import { layout } from '../common/storage.js';

/** A pane's share of the row when none is kept: all alike. */
const DEFAULT_SIZE = 20;
/** No pane is dragged narrower than this (px). */
const MIN_WIDTH = 48;
/** An arrow key moves a divider by this share of the two panes' width. */
const KEY_STEP = 0.05;

/**
 * Draggable dividers between adjacent shown panes, as in JS Bin. A pane's size is a flex-grow weight
 * (CSS `--size`), so when panes are hidden the others keep their proportions. Dividers are focusable
 * separators: arrow keys, Home and End move them too; a double-click gives every pane the same width.
 * Sizes are kept in this browser. `refresh` places the dividers again after panes are shown or hidden.
 */
export function wirePaneResizing(): { refresh(): void } {
  const row = document.querySelector<HTMLElement>('main.panes')!;
  const panes = [...row.querySelectorAll<HTMLElement>(':scope > .pane')];
  let sizes = layout.sizes();
  const nameOf = (pane: HTMLElement) => pane.dataset.pane!;
  const sizeOf = (pane: HTMLElement) => sizes[nameOf(pane)] ?? DEFAULT_SIZE;
  const titleOf = (pane: HTMLElement) => document.querySelector(`button[data-toggle="${nameOf(pane)}"]`)!.textContent;
  const widthOf = (pane: HTMLElement) => pane.getBoundingClientRect().width;

  /** The pane a divider resizes (the one before it) and the next shown pane, or none when it has no job. */
  function pairOf(index: number): [HTMLElement, HTMLElement] | undefined {
    const left = panes[index]!;
    const right = panes.slice(index + 1).find((pane) => !pane.hidden);
    return left.hidden || !right ? undefined : [left, right];
  }

  function apply(): void {
    for (const pane of panes) pane.style.setProperty('--size', String(sizeOf(pane)));
    dividers.forEach((divider, index) => {
      const pair = pairOf(index);
      divider.hidden = !pair;
      if (!pair) return;
      const [left, right] = pair;
      divider.setAttribute('aria-controls', left.id);
      divider.setAttribute('aria-label', `Resize ${titleOf(left)} and ${titleOf(right)}`);
      divider.setAttribute('aria-valuenow', String(Math.round((sizeOf(left) / (sizeOf(left) + sizeOf(right))) * 100)));
    });
  }

  /** Moves the border between `left` and `right` to `leftPx` of their `totalPx`, sharing their weight. */
  function place(left: HTMLElement, right: HTMLElement, leftPx: number, totalPx: number): void {
    const px = Math.min(Math.max(leftPx, MIN_WIDTH), totalPx - MIN_WIDTH);
    const weight = sizeOf(left) + sizeOf(right);
    const share = Math.round(((weight * px) / totalPx) * 100) / 100;
    sizes = { ...sizes, [nameOf(left)]: share, [nameOf(right)]: Math.round((weight - share) * 100) / 100 };
    apply();
  }

  const dividers = panes.slice(0, -1).map((pane, index) => {
    const divider = document.createElement('div');
    divider.className = 'divider';
    divider.tabIndex = 0;
    divider.setAttribute('role', 'separator');
    divider.setAttribute('aria-orientation', 'vertical');
    divider.setAttribute('aria-valuemin', '0');
    divider.setAttribute('aria-valuemax', '100');
    pane.after(divider);

    divider.addEventListener('pointerdown', (event) => {
      const pair = pairOf(index);
      if (event.button !== 0 || !pair) return;
      event.preventDefault(); // no text selection while dragging
      const [left, right] = pair;
      const startX = event.clientX;
      const leftPx = widthOf(left);
      const totalPx = leftPx + widthOf(right);
      divider.setPointerCapture(event.pointerId);
      // The preview frame would otherwise take the pointer events once the pointer is over it.
      document.body.classList.add('resizing');
      const move = (moved: PointerEvent) => place(left, right, leftPx + moved.clientX - startX, totalPx);
      divider.addEventListener('pointermove', move);
      divider.addEventListener(
        'lostpointercapture',
        () => {
          divider.removeEventListener('pointermove', move);
          document.body.classList.remove('resizing');
          layout.setSizes(sizes);
        },
        { once: true },
      );
    });

    divider.addEventListener('keydown', (event) => {
      const pair = pairOf(index);
      const moves: Record<string, (leftPx: number, totalPx: number) => number> = {
        ArrowLeft: (leftPx, totalPx) => leftPx - totalPx * KEY_STEP,
        ArrowRight: (leftPx, totalPx) => leftPx + totalPx * KEY_STEP,
        Home: () => 0,
        End: (_, totalPx) => totalPx,
      };
      const move = moves[event.key];
      if (!pair || !move) return;
      event.preventDefault();
      const [left, right] = pair;
      const totalPx = widthOf(left) + widthOf(right);
      place(left, right, move(widthOf(left), totalPx), totalPx);
      layout.setSizes(sizes);
    });

    divider.addEventListener('dblclick', () => {
      sizes = {};
      layout.setSizes(null);
      apply();
    });
    return divider;
  });

  apply();
  return { refresh: apply };
}

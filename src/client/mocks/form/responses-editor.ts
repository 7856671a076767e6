import type { ResponseInput } from '../common/api.js';
import { byId } from '../common/dom.js';
import { createResponseCard, type ResponseCard } from './response-card.js';

export type ResponsesEditor = {
  /** The responses in order; an ApiError naming the field when one's JSON does not parse. */
  read(): ResponseInput[];
  fill(responses: readonly ResponseInput[] | undefined): void;
};

/**
 * The endpoint's alternative answers in #responses, each one line (`#1 POST · … → 401 JSON`) that
 * opens to its fields, one open at a time: added at the end, removed, moved by dragging or with the
 * ↑ ↓ buttons. After a move the focus stays on the moved card's button, so a keyboard user can keep
 * moving it. A server error inside one opens it, so the marked field shows.
 */
export function createResponsesEditor(endpointStatus: () => number | undefined): ResponsesEditor {
  const list = byId<HTMLOListElement>('responses');
  const empty = byId('responses-empty');
  let cards: ResponseCard[] = [];
  let dragged: ResponseCard | undefined;

  const render = () => {
    list.replaceChildren(...cards.map((card) => card.element));
    cards.forEach((card, index) => card.setIndex(index, cards.length));
    empty.hidden = cards.length > 0;
  };
  const open = (card: ResponseCard) => {
    for (const other of cards) other.setOpen(other === card);
  };
  const moveTo = (card: ResponseCard, to: number) => {
    const from = cards.indexOf(card);
    if (from === -1 || to < 0 || to >= cards.length || to === from) return false;
    cards.splice(from, 1);
    cards.splice(to, 0, card);
    render();
    return true;
  };
  const actions = {
    move(card: ResponseCard, by: -1 | 1) {
      if (!moveTo(card, cards.indexOf(card) + by)) return;
      const pressed = card.element.querySelector<HTMLButtonElement>(by < 0 ? '.move-up' : '.move-down')!;
      const enabled = card.element.querySelector<HTMLButtonElement>('.move-up:enabled, .move-down:enabled');
      (pressed.disabled ? enabled : pressed)?.focus();
    },
    remove(card: ResponseCard) {
      const at = cards.indexOf(card);
      cards = cards.filter((one) => one !== card);
      render();
      (cards[Math.min(at, cards.length - 1)]?.element.querySelector<HTMLElement>('.response-toggle') ?? byId('add-response')).focus();
    },
    opened: open,
    endpointStatus,
  };
  const add = (response: ResponseInput) => {
    const card = createResponseCard(actions);
    card.fill(response);
    // Draggable only from its handle: a draggable card would take the mouse from its text boxes.
    const grip = card.element.querySelector<HTMLElement>('.grip')!;
    grip.addEventListener('pointerdown', () => (card.element.draggable = true));
    grip.addEventListener('pointerup', () => (card.element.draggable = false));
    card.element.addEventListener('dragstart', (event) => {
      dragged = card;
      event.dataTransfer?.setData('text/plain', '');
      card.element.classList.add('dragging');
    });
    card.element.addEventListener('dragend', () => {
      dragged = undefined;
      card.element.draggable = false;
      card.element.classList.remove('dragging');
    });
    card.element.addEventListener('dragover', (event) => {
      if (!dragged || dragged === card) return;
      event.preventDefault();
      moveTo(dragged, cards.indexOf(card));
    });
    card.element.addEventListener('drop', (event) => event.preventDefault());
    cards.push(card);
    return card;
  };

  byId('add-response').addEventListener('click', () => {
    const card = add({});
    render();
    open(card);
    card.element.querySelector<HTMLElement>('.response-body input')?.focus();
  });
  // The endpoint's status is what a response without its own sends: the labels say it.
  byId('status-slot').addEventListener('change', () => cards.forEach((card) => card.relabel()));
  // A field the server names (`responses[1].delay`) must be visible to be shown and focused.
  list.addEventListener('reveal-field', (event) => {
    const card = cards.find((one) => one.element.contains(event.target as Node));
    if (card) open(card);
  });

  return {
    read: () => cards.map((card) => card.read()),
    fill(responses = []) {
      cards = [];
      for (const response of responses) add(response);
      render();
    },
  };
}

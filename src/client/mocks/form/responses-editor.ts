import type { ResponseInput } from '../common/api.js';
import { byId } from '../common/dom.js';
import { createResponseCard, type ResponseCard } from './response-card.js';

export type ResponsesEditor = {
  /** The responses in order; an ApiError naming the field when one's JSON does not parse. */
  read(): ResponseInput[];
  fill(responses: readonly ResponseInput[] | undefined): void;
};

/**
 * The endpoint's alternative answers in #responses: added at the end, removed, moved up and down.
 * After a move the focus stays on the moved card's button, so a keyboard user can keep moving it.
 */
export function createResponsesEditor(): ResponsesEditor {
  const list = byId<HTMLOListElement>('responses');
  const empty = byId('responses-empty');
  let cards: ResponseCard[] = [];

  const render = () => {
    list.replaceChildren(...cards.map((card) => card.element));
    cards.forEach((card, index) => card.setIndex(index, cards.length));
    empty.hidden = cards.length > 0;
  };
  const actions = {
    move(card: ResponseCard, by: -1 | 1) {
      const from = cards.indexOf(card);
      const to = from + by;
      if (to < 0 || to >= cards.length) return;
      [cards[from], cards[to]] = [cards[to]!, cards[from]!];
      render();
      const pressed = card.element.querySelector<HTMLButtonElement>(by < 0 ? '.move-up' : '.move-down')!;
      const enabled = card.element.querySelector<HTMLButtonElement>('.move-up:enabled, .move-down:enabled');
      (pressed.disabled ? enabled : pressed)?.focus();
    },
    remove(card: ResponseCard) {
      const at = cards.indexOf(card);
      cards = cards.filter((one) => one !== card);
      render();
      (cards[Math.min(at, cards.length - 1)]?.element.querySelector('h4') ?? byId('add-response')).focus();
    },
  };
  const add = (response: ResponseInput) => {
    const card = createResponseCard(actions);
    card.fill(response);
    cards.push(card);
    return card;
  };

  byId('add-response').addEventListener('click', () => {
    const card = add({});
    render();
    card.element.querySelector('input')?.focus();
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

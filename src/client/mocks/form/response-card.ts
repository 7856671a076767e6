import { ApiError, type ResponseInput } from '../common/api.js';
import { createDelayField } from './delay-field.js';
import { el } from '../common/dom.js';
import { createFaultField } from './fault-field.js';
import { jsonText, parseJsonText } from '../common/json-text.js';
import { createKeyValueRows, pairsObject } from '../common/key-value-rows.js';
import { createStatusField } from './status-field.js';
import { createWhenEditor } from './when-editor.js';

export type ResponseCard = {
  element: HTMLLIElement;
  /** Its place in `responses`: the heading, the buttons' names and the fields the server's errors name. */
  setIndex(index: number, count: number): void;
  /** Throws an ApiError naming the full field (`responses[1].data`) when a JSON box does not parse. */
  read(): ResponseInput;
  fill(response: ResponseInput): void;
};

export type CardActions = { move(card: ResponseCard, by: -1 | 1): void; remove(card: ResponseCard): void };

let cards = 0;

/** One alternative answer: when it applies, and what it changes from the endpoint's own answer. */
export function createResponseCard(actions: CardActions): ResponseCard {
  const headingId = `response-heading-${++cards}`;
  const heading = el('h4', { id: headingId, tabindex: '-1' });
  const up = el('button', { type: 'button', class: 'move-up' }, '↑');
  const down = el('button', { type: 'button', class: 'move-down' }, '↓');
  const remove = el('button', { type: 'button', class: 'remove-response danger' }, 'Remove');
  const when = createWhenEditor();
  const status = createStatusField({ field: 'statusCode', optional: true });
  const delay = createDelayField({ field: 'delay', optional: true });
  const fault = createFaultField({ field: 'fault', noneLabel: "the endpoint's (none if it has none)" });
  const kind = el('select', { class: 'payload-kind', 'aria-label': 'Answer' },
    el('option', { value: '' }, "the endpoint's data or body"),
    el('option', { value: 'data' }, 'JSON data'),
    el('option', { value: 'body' }, 'text body'));
  const payload = el('textarea', {
    rows: '4', spellcheck: 'false', class: 'code payload', 'aria-label': 'Answer text',
  });
  let prefix = 'responses[0]';
  const showPayload = () => {
    payload.hidden = kind.value === '';
    payload.dataset.field = `${prefix}.${kind.value}`;
  };
  kind.addEventListener('change', showPayload);
  const headers = createKeyValueRows({
    legend: "Response headers (none: the endpoint's)", noun: 'header', field: 'headers', namePlaceholder: 'X-Header',
  });

  const element = el(
    'li',
    { class: 'response', 'aria-labelledby': headingId, 'data-field': '' },
    el('div', { class: 'response-head' }, heading, up, down, remove),
    when.element,
    el('div', { class: 'fields' },
      el('div', { class: 'field' }, 'Status', status.element),
      el('div', { class: 'field' }, 'Delay', delay.element),
      el('div', { class: 'field' }, 'Fault', fault.element)),
    el('div', { class: 'field' }, 'Answer', kind, payload),
    headers.element,
  );
  // Each field's name inside a response, kept so the index in front can change.
  for (const part of element.querySelectorAll<HTMLElement>('[data-field]')) part.dataset.rel = part.dataset.field;
  payload.dataset.rel = '';

  const card: ResponseCard = {
    element,
    setIndex(index, count) {
      prefix = `responses[${index}]`;
      heading.textContent = prefix;
      up.setAttribute('aria-label', `Move ${prefix} up`);
      down.setAttribute('aria-label', `Move ${prefix} down`);
      remove.setAttribute('aria-label', `Remove ${prefix}`);
      up.disabled = index === 0;
      down.disabled = index === count - 1;
      for (const part of element.querySelectorAll<HTMLElement>('[data-rel]')) {
        const rel = part === payload ? kind.value : part.dataset.rel;
        part.dataset.field = rel ? `${prefix}.${rel}` : prefix;
      }
    },
    read() {
      const response: ResponseInput = {};
      try {
        const whenValue = when.read();
        if (whenValue) response.when = whenValue;
        if (kind.value === 'data') response.data = parseJsonText(payload.value, 'data');
        if (kind.value === 'body') response.body = payload.value;
      } catch (err) {
        if (!(err instanceof ApiError) || err.field === undefined) throw err;
        throw new ApiError(`${prefix}.${err.message}`, `${prefix}.${err.field}`);
      }
      const code = status.read();
      if (code !== undefined) response.statusCode = code;
      const headerValues = pairsObject(headers.pairs());
      if (headerValues) response.headers = headerValues;
      const delayValue = delay.read();
      if (delayValue !== undefined) response.delay = delayValue;
      return { ...response, ...fault.read() };
    },
    fill(response) {
      when.fill(response.when);
      status.fill(response.statusCode);
      delay.fill(response.delay);
      fault.fill(response);
      kind.value = response.body !== undefined ? 'body' : response.data !== undefined ? 'data' : '';
      payload.value = response.body ?? (response.data === undefined ? '' : jsonText(response.data));
      headers.fill(Object.entries(response.headers ?? {}));
      showPayload();
    },
  };
  up.addEventListener('click', () => actions.move(card, -1));
  down.addEventListener('click', () => actions.move(card, 1));
  remove.addEventListener('click', () => actions.remove(card));
  return card;
}

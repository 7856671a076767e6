import { ApiError, type ResponseInput } from '../common/api.js';
import { createDelayField } from './delay-field.js';
import { el } from '../common/dom.js';
import { createFaultField } from './fault-field.js';
import { jsonText, parseJsonText } from '../common/json-text.js';
import { createKeyValueRows, pairsObject } from '../common/key-value-rows.js';
import { createStatusField } from './status-field.js';
import { createWhenEditor } from './when-editor.js';
import { responseLabel, responseNumber, type LabelledResponse } from '../../../shared/response-label.js';

export type ResponseCard = {
  element: HTMLLIElement;
  /** Shows or hides its fields; the editor keeps one open at a time. */
  setOpen(open: boolean): void;
  /** Its one-line label again, after its fields or the endpoint's status changed. */
  relabel(): void;
  /** Its place in `responses`: the heading, the buttons' names and the fields the server's errors name. */
  setIndex(index: number, count: number): void;
  /** Throws an ApiError naming the full field (`responses[1].data`) when a JSON box does not parse. */
  read(): ResponseInput;
  fill(response: ResponseInput): void;
};

export type CardActions = {
  move(card: ResponseCard, by: -1 | 1): void;
  remove(card: ResponseCard): void;
  /** Opened by its toggle: the others close. */
  opened(card: ResponseCard): void;
  /** The endpoint's own status, which a response without one sends. */
  endpointStatus(): number | undefined;
};

let cards = 0;

/** One alternative answer: when it applies, and what it changes from the endpoint's own answer. */
export function createResponseCard(actions: CardActions): ResponseCard {
  const headingId = `response-heading-${++cards}`;
  const bodyId = `response-body-${cards}`;
  const toggle = el('button', { type: 'button', class: 'response-toggle', 'aria-expanded': 'false', 'aria-controls': bodyId });
  const heading = el('h4', { id: headingId }, toggle);
  // Dragged by this handle; the buttons beside it move by keyboard.
  const grip = el('span', { class: 'grip', title: 'Drag to reorder', 'aria-hidden': 'true' }, '⠿');
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
    el('option', { value: 'body' }, 'text body'),
    el('option', { value: 'base64Body' }, 'bytes, in base64'));
  const payload = el('textarea', {
    rows: '4', spellcheck: 'false', class: 'code payload', 'aria-label': 'Answer text',
  });
  let prefix = 'responses[0]';
  let number = 0;
  const showPayload = () => {
    payload.hidden = kind.value === '';
    payload.dataset.field = `${prefix}.${kind.value}`;
  };
  kind.addEventListener('change', showPayload);
  const setState = el('input', {
    autocomplete: 'off', spellcheck: 'false', maxlength: '64', placeholder: 'paid (empty: unchanged)', 'data-field': 'setState',
  });
  const headers = createKeyValueRows({
    legend: "Response headers (none: the endpoint's)", noun: 'header', field: 'headers', namePlaceholder: 'X-Header',
  });
  let kept: { content?: unknown; anyStatus?: boolean } = {};
  const callbacks = el('textarea', {
    rows: '2', spellcheck: 'false', class: 'code', 'data-field': 'callbacks', placeholder: '[{ "url": "http://localhost:4000/hook" }]',
  });

  const fieldsBox = el('div', { class: 'response-body', id: bodyId, hidden: '' },
    when.element,
    el('div', { class: 'fields' },
      el('div', { class: 'field' }, 'Status', status.element),
      el('div', { class: 'field' }, 'Delay', delay.element),
      el('div', { class: 'field' }, 'Fault', fault.element)),
    el('div', { class: 'field' }, 'Answer', kind, payload),
    headers.element,
    el('label', { class: 'block' }, "Then the scenario's state is", setState),
    el('label', { class: 'block' }, "Callbacks (a JSON list; empty: the endpoint's; [] for none)", callbacks),
  );
  const element = el(
    'li',
    { class: 'response', 'aria-labelledby': headingId, 'data-field': '' },
    el('div', { class: 'response-head' }, grip, heading, up, down, remove),
    fieldsBox,
  );
  // Each field's name inside a response, kept so the index in front can change.
  for (const part of element.querySelectorAll<HTMLElement>('[data-field]')) part.dataset.rel = part.dataset.field;
  payload.dataset.rel = '';

  const card: ResponseCard = {
    element,
    setOpen(open) {
      toggle.setAttribute('aria-expanded', String(open));
      fieldsBox.hidden = !open;
      element.classList.toggle('open', open);
    },
    relabel() {
      let shown: LabelledResponse;
      try {
        shown = card.read();
      } catch {
        // A JSON box that does not parse yet: label what can be read.
        shown = { when: undefined, statusCode: status.read(), fault: fault.read().fault };
      }
      toggle.textContent = responseLabel(number, shown, actions.endpointStatus());
    },
    setIndex(index, count) {
      prefix = `responses[${index}]`;
      number = index;
      const label = responseNumber(index);
      card.relabel();
      up.setAttribute('aria-label', `Move ${label} up`);
      down.setAttribute('aria-label', `Move ${label} down`);
      remove.setAttribute('aria-label', `Remove ${label}`);
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
        if (kind.value === 'base64Body') response.base64Body = payload.value.replace(/\s+/g, '');
        if (callbacks.value.trim() !== '') response.callbacks = parseJsonText(callbacks.value, 'callbacks') as unknown[];
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
      if (setState.value.trim() !== '') response.setState = setState.value.trim();
      return { ...response, ...fault.read(), ...kept };
    },
    fill(response) {
      // What the form does not show goes back as it came: an edit keeps an imported answer's media types.
      kept = { ...(response.content !== undefined && { content: response.content }), ...(response.anyStatus !== undefined && { anyStatus: response.anyStatus }) };
      when.fill(response.when);
      status.fill(response.statusCode);
      delay.fill(response.delay);
      fault.fill(response);
      kind.value = response.body !== undefined ? 'body' : response.base64Body !== undefined ? 'base64Body' : response.data !== undefined ? 'data' : '';
      payload.value = response.body ?? response.base64Body ?? (response.data === undefined ? '' : jsonText(response.data));
      headers.fill(Object.entries(response.headers ?? {}));
      setState.value = response.setState ?? '';
      callbacks.value = response.callbacks === undefined ? '' : jsonText(response.callbacks);
      showPayload();
    },
  };
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    card.setOpen(open);
    if (open) actions.opened(card);
  });
  for (const type of ['input', 'change']) fieldsBox.addEventListener(type, () => card.relabel());
  up.addEventListener('click', () => actions.move(card, -1));
  down.addEventListener('click', () => actions.move(card, 1));
  remove.addEventListener('click', () => actions.remove(card));
  return card;
}

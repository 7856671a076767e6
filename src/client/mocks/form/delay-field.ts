import type { Delay } from '../common/api.js';
import { el } from '../common/dom.js';

export type DelayField = {
  element: HTMLElement;
  /** undefined: the optional field left to the endpoint. Numbers as typed; the server checks the range. */
  read(): Delay | undefined;
  fill(delay: Delay | undefined): void;
};

const INHERIT = 'inherit';

/**
 * Latency: a fixed number of milliseconds or a min–max range drawn per request. `optional` adds
 * "the endpoint's" for a response; `idPrefix` gives the endpoint's inputs ids (`delay`, `delay-min`).
 */
export function createDelayField(options: { field: string; optional?: boolean; idPrefix?: string }): DelayField {
  const { field, idPrefix } = options;
  const mode = el('select', { 'aria-label': 'Delay kind', 'data-field': field });
  if (options.optional) mode.append(el('option', { value: INHERIT }, "the endpoint's"));
  mode.append(el('option', { value: 'fixed' }, 'fixed'), el('option', { value: 'range' }, 'range'));
  const number = (label: string, sub: string, id?: string) => {
    const input = el('input', {
      type: 'number', min: '0', step: '1', inputmode: 'numeric', 'aria-label': label, 'data-field': sub,
    });
    if (id) input.id = id;
    return input;
  };
  const fixed = number('Delay (ms)', field, idPrefix);
  const min = number('Shortest delay (ms)', `${field}.min`, idPrefix && `${idPrefix}-min`);
  const max = number('Longest delay (ms)', `${field}.max`, idPrefix && `${idPrefix}-max`);
  const range = el('span', { class: 'range' }, min, ' to ', max);
  const element = el('span', { class: 'delay' }, mode, ' ', fixed, range, ' ms');
  if (idPrefix) mode.id = `${idPrefix}-mode`;
  const show = () => {
    fixed.hidden = mode.value !== 'fixed';
    range.hidden = mode.value !== 'range';
  };
  mode.addEventListener('change', show);
  // An empty box is 0, as the server's default is; anything else goes as typed for the server to judge.
  const value = (input: HTMLInputElement) => (input.value.trim() === '' ? 0 : Number(input.value));

  return {
    element,
    read() {
      if (mode.value === INHERIT) return undefined;
      if (mode.value === 'range') return { min: value(min), max: value(max) };
      return value(fixed);
    },
    fill(delay) {
      const isRange = typeof delay === 'object';
      mode.value = delay === undefined && options.optional ? INHERIT : isRange ? 'range' : 'fixed';
      fixed.value = typeof delay === 'number' ? String(delay) : options.optional ? '' : '0';
      min.value = isRange ? String(delay.min) : '';
      max.value = isRange ? String(delay.max) : '';
      show();
    },
  };
}

import { FAULTS, type Fault } from '../common/api.js';
import { el } from '../common/dom.js';

export type FaultChoice = { fault?: Fault; faultRate?: number };

export type FaultField = {
  element: HTMLElement;
  read(): FaultChoice;
  fill(choice: FaultChoice): void;
};

const NONE = '';

const EXPLAINED: Record<Fault, string> = {
  reset: 'reset: the connection is reset',
  empty: 'empty: closed with no response',
  malformed: 'malformed: random bytes, then closed',
  hang: 'hang: no answer until the client gives up',
};

/**
 * A fault and the fraction of requests it hits (1, every one, when left empty). `noneLabel` is what
 * no fault means here: "none" on the endpoint, "the endpoint's" on a response, which inherits it.
 */
export function createFaultField(options: { field: string; noneLabel: string; idPrefix?: string }): FaultField {
  const { field, idPrefix } = options;
  const fault = el('select', { 'aria-label': 'Fault', 'data-field': field });
  fault.append(el('option', { value: NONE }, options.noneLabel));
  for (const one of FAULTS) fault.append(el('option', { value: one }, EXPLAINED[one]));
  const rate = el('input', {
    type: 'number', min: '0', max: '1', step: '0.05', placeholder: '1', 'aria-label': 'Fault rate (0 to 1)',
    'data-field': `${field}Rate`,
  });
  if (idPrefix) {
    fault.id = idPrefix;
    rate.id = `${idPrefix}-rate`;
  }
  const rateLabel = el('label', { class: 'rate' }, 'of requests (0–1) ', rate);
  const element = el('span', { class: 'fault' }, fault, ' ', rateLabel);
  const show = () => (rateLabel.hidden = fault.value === NONE);
  fault.addEventListener('change', show);

  return {
    element,
    read() {
      if (fault.value === NONE) return {};
      const choice: FaultChoice = { fault: fault.value as Fault };
      if (rate.value.trim() !== '') choice.faultRate = Number(rate.value);
      return choice;
    },
    fill(choice) {
      fault.value = choice.fault ?? NONE;
      rate.value = choice.faultRate === undefined ? '' : String(choice.faultRate);
      show();
    },
  };
}

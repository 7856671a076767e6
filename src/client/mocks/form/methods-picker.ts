import { METHODS } from '../common/api.js';
import { el } from '../common/dom.js';

export type MethodsPicker = {
  element: HTMLFieldSetElement;
  /** The checked methods, in the offered order; empty when none is checked. */
  read(): string[];
  fill(methods: readonly string[] | undefined): void;
};

/**
 * One checkbox per method. `field` names the record field for the server's errors; `idPrefix` gives
 * the boxes ids (`<prefix>-get`), so the endpoint's own can be found by a test or a label.
 */
export function createMethodsPicker(legend: string, field: string, idPrefix?: string): MethodsPicker {
  const element = el('fieldset', { class: 'methods', 'data-field': field }, el('legend', {}, legend));
  const boxes = METHODS.map((method) => {
    const box = el('input', { type: 'checkbox', value: method });
    if (idPrefix) box.id = `${idPrefix}-${method.toLowerCase()}`;
    element.append(el('label', { class: 'check' }, box, ` ${method}`));
    return box;
  });
  // A method typed by hand elsewhere (from the CLI or the API) is kept rather than dropped on save.
  let others: string[] = [];

  return {
    element,
    read: () => [...boxes.filter((box) => box.checked).map((box) => box.value), ...others],
    fill(methods = []) {
      for (const box of boxes) box.checked = methods.includes(box.value);
      others = methods.filter((method) => !(METHODS as readonly string[]).includes(method));
    },
  };
}

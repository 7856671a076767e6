import { el } from './dom.js';

export type KeyValueOptions = {
  /** The fieldset's legend, e.g. "Response headers". */
  legend: string;
  /** What one row is, for labels and buttons: "header" gives "Header name", "Add header", "Remove header". */
  noun: string;
  /** The record field the rows edit, for the server's errors (`headers`, `when.query`). */
  field: string;
  namePlaceholder?: string;
  /** Shown under the legend: how the rows are read. */
  hint?: string;
  /** An id for the add button, so a page test can find the endpoint's own. */
  addId?: string;
};

export type KeyValueRows = {
  element: HTMLFieldSetElement;
  /** Rows with a name, in order, names and values trimmed; a name may repeat. */
  pairs(): [string, string][];
  fill(pairs: Iterable<[string, string]>): void;
};

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Name/value rows with add and remove buttons: headers, query parameters, path parameters. */
export function createKeyValueRows(options: KeyValueOptions): KeyValueRows {
  const { noun } = options;
  const rows = el('div', { class: 'pairs' });
  const add = el('button', { type: 'button' }, `Add ${noun}`);
  if (options.addId) add.id = options.addId;
  const element = el('fieldset', { 'data-field': options.field }, el('legend', {}, options.legend));
  if (options.hint) element.append(el('p', { class: 'hint' }, options.hint));
  element.append(rows, add);

  const addRow = (name = '', value = '') => {
    const nameInput = el('input', {
      class: 'pair-name',
      'aria-label': `${capital(noun)} name`,
      placeholder: options.namePlaceholder ?? 'name',
      spellcheck: 'false',
      autocomplete: 'off',
    });
    const valueInput = el('input', {
      class: 'pair-value',
      'aria-label': `${capital(noun)} value`,
      placeholder: 'value',
      spellcheck: 'false',
      autocomplete: 'off',
    });
    nameInput.value = name;
    valueInput.value = value;
    const remove = el('button', { type: 'button', class: 'remove', 'aria-label': `Remove ${noun}` }, '×');
    const row = el('div', { class: 'pair-row' }, nameInput, valueInput, remove);
    remove.addEventListener('click', () => {
      // Keep the keyboard user in the list rather than dropping focus on the body.
      const next = (row.nextElementSibling ?? row.previousElementSibling)?.querySelector('input') ?? add;
      row.remove();
      next.focus();
    });
    rows.append(row);
    return nameInput;
  };
  add.addEventListener('click', () => addRow().focus());

  return {
    element,
    pairs() {
      const pairs: [string, string][] = [];
      for (const row of rows.children) {
        const [name, value] = [...row.querySelectorAll('input')].map((input) => input.value.trim());
        if (name) pairs.push([name, value ?? '']);
      }
      return pairs;
    },
    fill(pairs) {
      rows.replaceChildren();
      for (const [name, value] of pairs) addRow(name, value);
    },
  };
}

/** Pairs as an object (a repeated name: the last wins), or undefined when there are none. */
export function pairsObject(pairs: [string, string][]): Record<string, string> | undefined {
  if (pairs.length === 0) return undefined;
  return Object.fromEntries(pairs);
}

import { el } from '../common/dom.js';

// The codes people mock most; any other from 200 to 599 goes in "Other".
const COMMON_STATUSES: [number, string][] = [
  [200, 'OK'], [201, 'Created'], [202, 'Accepted'], [204, 'No Content'],
  [301, 'Moved Permanently'], [302, 'Found'], [304, 'Not Modified'],
  [400, 'Bad Request'], [401, 'Unauthorized'], [403, 'Forbidden'], [404, 'Not Found'], [409, 'Conflict'],
  [410, 'Gone'], [418, "I'm a teapot"], [422, 'Unprocessable Content'], [429, 'Too Many Requests'],
  [500, 'Internal Server Error'], [502, 'Bad Gateway'], [503, 'Service Unavailable'], [504, 'Gateway Timeout'],
];
const OTHER = 'other';
const INHERIT = 'inherit';

export type StatusField = {
  /** The select and, when "Other…" is chosen, a number box. */
  element: HTMLElement;
  /** undefined: an optional field left to the endpoint. */
  read(): number | undefined;
  fill(code: number | undefined): void;
};

/**
 * A status picked from the common ones or typed. `optional` adds "the endpoint's" for a response;
 * `idPrefix` gives the endpoint's controls ids (`status-code`, `status-other`, `status-other-label`).
 */
export function createStatusField(options: { field: string; optional?: boolean; idPrefix?: string }): StatusField {
  const { field, idPrefix } = options;
  const select = el('select', { 'aria-label': 'Status', 'data-field': field });
  if (options.optional) select.append(el('option', { value: INHERIT }, "the endpoint's"));
  for (const [code, text] of COMMON_STATUSES) select.append(el('option', { value: String(code) }, `${code} ${text}`));
  select.append(el('option', { value: OTHER }, 'Other…'));
  const other = el('input', {
    type: 'number', min: '200', max: '599', step: '1', inputmode: 'numeric', 'aria-label': 'Other status',
    'data-field': field,
  });
  const otherLabel = el('label', { class: 'other-status' }, 'Other status ', other);
  if (idPrefix) {
    select.id = `${idPrefix}-code`;
    other.id = `${idPrefix}-other`;
    otherLabel.id = `${idPrefix}-other-label`;
  }
  const show = () => (otherLabel.hidden = select.value !== OTHER);
  select.addEventListener('change', show);

  return {
    element: el('span', { class: 'status' }, select, ' ', otherLabel),
    read() {
      if (select.value === INHERIT) return undefined;
      return Number(select.value === OTHER ? other.value : select.value);
    },
    fill(code) {
      if (code === undefined) {
        select.value = options.optional ? INHERIT : '200';
        other.value = '';
      } else {
        const common = COMMON_STATUSES.some(([known]) => known === code);
        select.value = common ? String(code) : OTHER;
        other.value = common ? '' : String(code);
      }
      show();
    },
  };
}

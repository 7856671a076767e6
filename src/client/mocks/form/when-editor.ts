import type { When } from '../common/api.js';
import { el } from '../common/dom.js';
import { jsonText, parseJsonText } from '../common/json-text.js';
import { createKeyValueRows, pairsObject } from '../common/key-value-rows.js';
import { createMethodsPicker } from './methods-picker.js';

export type WhenEditor = {
  element: HTMLFieldSetElement;
  /** undefined when no part is given (the response always matches). Throws an ApiError on bad JSON. */
  read(): When | undefined;
  fill(when: When | undefined): void;
};

/**
 * Query rows to `when.query`: a name given on several rows takes any of their values. Grouped in a
 * Map, as assigning a "__proto__" key to an object would drop it without a word instead of letting
 * the server refuse it.
 */
function queryObject(pairs: [string, string][]): Record<string, string | string[]> | undefined {
  if (pairs.length === 0) return undefined;
  const query = new Map<string, string[]>();
  for (const [name, value] of pairs) query.set(name, [...(query.get(name) ?? []), value]);
  return Object.fromEntries([...query].map(([name, values]) => [name, values.length === 1 ? values[0]! : values]));
}

/** The `when` of one response: method boxes, name/value rows for params, query and headers, a JSON body. */
export function createWhenEditor(): WhenEditor {
  const methods = createMethodsPicker('Method is any of (none: any method)', 'when.method');
  const params = createKeyValueRows({
    legend: 'Path parameters', noun: 'path parameter', field: 'when.params', namePlaceholder: 'id',
  });
  const query = createKeyValueRows({
    legend: 'Query', noun: 'query parameter', field: 'when.query', namePlaceholder: 'role',
    hint: 'Repeat a name to accept any of its values.',
  });
  const headers = createKeyValueRows({
    legend: 'Headers', noun: 'request header', field: 'when.headers', namePlaceholder: 'x-tenant',
    hint: 'Names in any case; values exact.',
  });
  const body = el('textarea', {
    rows: '2', spellcheck: 'false', class: 'code', placeholder: '{"type": "refund"}', 'data-field': 'when.body',
  });
  const state = el('input', {
    autocomplete: 'off', spellcheck: 'false', maxlength: '64', placeholder: 'paid (empty: any state)', 'data-field': 'when.state',
  });
  const element = el(
    'fieldset',
    { class: 'when', 'data-field': 'when' },
    el('legend', {}, 'When (every part given must match; nothing given: always)'),
    methods.element,
    params.element,
    query.element,
    headers.element,
    el('label', { class: 'block' }, 'Body contains (a JSON object: each key given must be equal)', body),
    el('label', { class: 'block' }, "The endpoint's scenario is in state", state),
  );

  return {
    element,
    read() {
      const when: When = {};
      const method = methods.read();
      if (method.length > 0) when.method = method;
      const paramValues = pairsObject(params.pairs());
      if (paramValues) when.params = paramValues;
      const queryValues = queryObject(query.pairs());
      if (queryValues) when.query = queryValues;
      const headerValues = pairsObject(headers.pairs());
      if (headerValues) when.headers = headerValues;
      // The field is named as a response's part; the responses editor puts its index in front.
      if (body.value.trim() !== '') {
        when.body = parseJsonText(body.value, 'when.body', true) as Record<string, unknown>;
      }
      if (state.value.trim() !== '') when.state = state.value.trim();
      return Object.keys(when).length === 0 ? undefined : when;
    },
    fill(when = {}) {
      const method = when.method as string[] | string | undefined;
      methods.fill(typeof method === 'string' ? [method] : method);
      params.fill(Object.entries(when.params ?? {}));
      query.fill(
        Object.entries(when.query ?? {}).flatMap(([name, value]) =>
          (Array.isArray(value) ? value : [value]).map((one): [string, string] => [name, one]),
        ),
      );
      headers.fill(Object.entries(when.headers ?? {}));
      body.value = when.body === undefined ? '' : jsonText(when.body);
      state.value = when.state ?? '';
    },
  };
}
